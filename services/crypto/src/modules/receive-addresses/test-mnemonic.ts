// PUBLIC TEST VECTOR — NOT A SECRET, NEVER FOR REAL FUNDS.
// This is the BIP39 test mnemonic used by BIP84's own test vectors and by most wallet test suites; anyone can
// spend what is sent to addresses derived from it. The service uses it for ONE purpose: an account created
// without `--xpub` (demo seed, tests) gets account-level public keys derived from it, so the demo works without
// a wallet. The private keys computed here are dropped immediately; only the extended PUBLIC keys are returned
// and stored, exactly as if an operator had pasted them. Nothing else in the service derives from a seed.
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey } from '@scure/bip32';
import { RECEIVE_SCHEMES, XPUB_VERSIONS, type ReceiveAsset } from './derivation.js';

/** BIP39 / BIP84 published test mnemonic (no passphrase). Public knowledge; worthless by design. */
export const TEST_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** Serialization of each asset's account key: BIP84 testnet keys as `vpub`, EVM keys as standard `xpub`. */
const TEST_KEY_VERSIONS: Record<ReceiveAsset, number> = {
  BTC: XPUB_VERSIONS.vpub,
  LTC: XPUB_VERSIONS.vpub,
  ETH: XPUB_VERSIONS.xpub,
  MATIC: XPUB_VERSIONS.xpub,
};

let cached: Readonly<Record<ReceiveAsset, string>> | undefined;

/**
 * Account-level extended public keys derived from TEST_MNEMONIC at each asset's account path
 * (BTC/LTC m/84'/1'/0' as vpub, ETH/MATIC m/44'/60'/0' as xpub). ONLY for accounts created without `--xpub`.
 */
export function testMnemonicAccountKeys(): Readonly<Record<ReceiveAsset, string>> {
  if (cached) return cached;
  const seed = mnemonicToSeedSync(TEST_MNEMONIC);
  const keys = {} as Record<ReceiveAsset, string>;
  for (const asset of Object.keys(RECEIVE_SCHEMES) as ReceiveAsset[]) {
    const versions = { public: TEST_KEY_VERSIONS[asset], private: 0x04358394 /* tprv; never serialized */ };
    const account = HDKey.fromMasterSeed(seed, versions).derive(RECEIVE_SCHEMES[asset].accountPath);
    keys[asset] = account.publicExtendedKey;
    account.wipePrivateData();
  }
  seed.fill(0);
  cached = Object.freeze(keys);
  return cached;
}
