// PUBLIC TEST VECTOR — NOT A SECRET, NEVER FOR REAL FUNDS.
// This is the BIP39 test mnemonic used by BIP84's own test vectors and by most wallet test suites; anyone can
// spend what is sent to addresses derived from it. The service uses it for ONE purpose: an account created
// without `--xpub` (demo seed, tests) gets account-level public keys derived from it, so the demo works without
// a wallet. Each gateway account gets its own BIP32 account (account n' for the account with id n), so no two
// accounts share a key or an address. The private keys computed here are dropped immediately; only the extended
// PUBLIC keys are returned and stored, exactly as if an operator had pasted them. Nothing else derives from a seed.
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey } from '@scure/bip32';
import { RECEIVE_ASSETS, XPUB_VERSIONS, accountKeyPath, type ReceiveAsset } from './derivation.js';

/** BIP39 / BIP84 published test mnemonic (no passphrase). Public knowledge; worthless by design. */
export const TEST_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** Serialization of each asset's account key: BIP84 testnet keys as `vpub`, EVM keys as standard `xpub`. */
const TEST_KEY_VERSIONS: Record<ReceiveAsset, number> = {
  BTC: XPUB_VERSIONS.vpub,
  LTC: XPUB_VERSIONS.vpub,
  ETH: XPUB_VERSIONS.xpub,
  MATIC: XPUB_VERSIONS.xpub,
};

// The seed of a published test vector is no secret; kept so each account's keys cost one derivation, not a PBKDF2 run.
let seed: Uint8Array | undefined;

/**
 * Account-level extended public keys derived from TEST_MNEMONIC for BIP32 account `account` (0 .. 2^31 - 1): BTC/LTC
 * at m/84'/1'/account' as vpub, ETH/MATIC at m/44'/60'/account' as xpub (BTC and LTC share one key, ETH and MATIC
 * another). The development fallback passes the gateway account's id; account 0 is the published vector
 * (tb1q6rz28…, 0x9858EfFD…) that the fallback never assigns. ONLY for accounts created without `--xpub`, and never on
 * mainnet (test networks and regtest share these keys; account creation and the seed refuse them there).
 */
export function testMnemonicAccountKeys(account: number): Readonly<Record<ReceiveAsset, string>> {
  seed ??= mnemonicToSeedSync(TEST_MNEMONIC);
  const keys = {} as Record<ReceiveAsset, string>;
  for (const asset of RECEIVE_ASSETS) {
    const versions = { public: TEST_KEY_VERSIONS[asset], private: 0x04358394 /* tprv; never serialized */ };
    const node = HDKey.fromMasterSeed(seed, versions).derive(accountKeyPath('testnet', asset, account));
    keys[asset] = node.publicExtendedKey;
    node.wipePrivateData();
  }
  return Object.freeze(keys);
}

/** Why an account cannot get the test mnemonic's keys on mainnet: anyone could spend what is sent to them. */
export const TEST_KEYS_ON_MAINNET_MESSAGE =
  'On mainnet every account needs its own wallet keys (--xpub ASSET=KEY): the development keys come from a published test mnemonic, so anyone could spend what is sent to them.';
