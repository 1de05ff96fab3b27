// Receive addresses: per-account extended public keys, pure derivation, atomic index allocation.
import { AccountXpubSchema } from './account-xpub.entity.js';

export { AccountXpub, AccountXpubSchema } from './account-xpub.entity.js';
export {
  BTC_TESTNET,
  InvalidXpubError,
  LTC_TESTNET,
  MAX_RECEIVE_INDEX,
  RECEIVE_ASSETS,
  RECEIVE_SCHEMES,
  XPUB_VERSIONS,
  addressFromPublicKey,
  assertAccountXpub,
  deriveReceiveAddress,
  evmAddressFromPublicKey,
  isReceiveAsset,
  parseAccountXpub,
  receivePath,
  toChecksumAddress,
  type ReceiveAsset,
} from './derivation.js';
export {
  accountXpubs,
  allocateReceiveAddress,
  saveAccountXpubs,
  validateAccountXpubs,
  type AllocatedReceiveAddress,
} from './receive-address.service.js';
export { TEST_MNEMONIC, testMnemonicAccountKeys } from './test-mnemonic.js';

/** Entities of this module, for the service's entity list. */
export const receiveAddressEntities = [AccountXpubSchema];
