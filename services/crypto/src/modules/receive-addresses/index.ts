// Receive addresses: per-account extended public keys (each owned by one account), pure derivation, atomic index allocation,
// gap-limit telemetry (how far a watching wallet must look).
import { AccountXpubSchema } from './account-xpub.entity.js';
import { ReceiveKeyOwnerSchema } from './receive-key-owner.entity.js';

export { AccountXpub, AccountXpubSchema } from './account-xpub.entity.js';
export { ReceiveKeyOwner, ReceiveKeyOwnerSchema } from './receive-key-owner.entity.js';
export {
  BTC_MAINNET,
  BTC_REGTEST,
  BTC_TESTNET,
  CHAIN_NETWORKS,
  DEFAULT_CHAIN_NETWORK,
  InvalidXpubError,
  LTC_MAINNET,
  LTC_REGTEST,
  LTC_TESTNET,
  MAX_ACCOUNT_INDEX,
  MAX_RECEIVE_INDEX,
  RECEIVE_ASSETS,
  RECEIVE_SCHEMES,
  XPUB_VERSIONS,
  accountKeyPath,
  addressFromPublicKey,
  assertAccountXpub,
  deriveReceiveAddress,
  evmAddressFromPublicKey,
  isReceiveAsset,
  parseAccountXpub,
  receiveKeyIdentity,
  receivePath,
  toChecksumAddress,
  type ChainNetwork,
  type ReceiveAsset,
} from './derivation.js';
export {
  accountXpubs,
  allocateReceiveAddress,
  keyOwnedByAnotherAccountMessage,
  saveAccountXpubs,
  validateAccountXpubs,
  type AllocatedReceiveAddress,
} from './receive-address.service.js';
export { DEFAULT_GAP_LIMIT, MAX_GAP_LIMIT, gapLimitFields, gapWarning, receiveAddressGap, type ReceiveAddressGap, type ReceiveIndexUse } from './gap-limit.js';
export { ReceiveAddressGapService } from './receive-address-gap.service.js';
export { receiveAddressGapResolvers } from './receive-address-gap.resolvers.js';
export { TEST_KEYS_ON_MAINNET_MESSAGE, TEST_MNEMONIC, testMnemonicAccountKeys } from './test-mnemonic.js';

/** Entities of this module, for the service's entity list. */
export const receiveAddressEntities = [AccountXpubSchema, ReceiveKeyOwnerSchema];
