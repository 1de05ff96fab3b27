// Pure receive-address derivation from account-level extended PUBLIC keys. No private key ever reaches this
// code: an extended private key is refused on input, and the service only derives non-hardened children
// (`<account xpub>/0/i`, the external "receive" chain), which public derivation (BIP32 CKDpub) allows.
//
// Schemes per network (CRYPTO_NETWORK: testnet by default, regtest for a local node, mainnet only when confirmed):
// | Asset | Network          | Address                              | Account key path           | Accepted key prefixes |
// |-------|------------------|--------------------------------------|----------------------------|-----------------------|
// | BTC   | testnet, regtest | P2WPKH `tb1q…` / `bcrt1q…` (BIP84)   | m/84'/1'/n' (coin type 1)  | vpub, tpub            |
// | BTC   | mainnet          | P2WPKH `bc1q…` (BIP84)               | m/84'/0'/n'                | zpub, xpub            |
// | LTC   | testnet, regtest | P2WPKH `tltc1q…` / `rltc1q…` (BIP84) | m/84'/1'/n' (as for BTC)   | vpub, tpub, ttub      |
// | LTC   | mainnet          | P2WPKH `ltc1q…` (BIP84)              | m/84'/2'/n'                | zpub, xpub, Ltub      |
// | ETH   | every network    | EIP-55 checksummed `0x…`             | m/44'/60'/n' (BIP44 60)    | xpub, tpub            |
// | MATIC | every network    | EIP-55 checksummed `0x…`             | m/44'/60'/n' (EVM: same)   | xpub, tpub            |
// Test networks and regtest share keys (coin type 1): the same key and index give the same witness program under
// another prefix, which is why every payment request records the network it was made on (a payment on another network
// must never count for it). A mainnet key is refused on a test network and a test key on mainnet.
// The receive address at index i is <account key>/0/i. Version bytes only say which wallet exported the key;
// derivation is the same for all accepted prefixes of an asset.
//
// Account index n: a merchant's wallet exports any of its accounts (usually 0'). The development fallback (accounts
// created without `--xpub`, see test-mnemonic.ts) derives the public test mnemonic's account n' = the gateway
// account's id, so account 1 gets m/84'/1'/1' and m/44'/60'/1', account 2 m/84'/1'/2' and m/44'/60'/2', …; account 0'
// (the published test vector) is never assigned by the fallback. A key belongs to one gateway account
// (receive_key_owners), identified by `receiveKeyIdentity` (chain code + public key, whatever its prefix).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { HDKey, HARDENED_OFFSET } from '@scure/bip32';
import { p2wpkh } from '@scure/btc-signer';
import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';

export const RECEIVE_ASSETS = ['BTC', 'ETH', 'LTC', 'MATIC'] as const;
export type ReceiveAsset = (typeof RECEIVE_ASSETS)[number];

export const isReceiveAsset = (value: unknown): value is ReceiveAsset => (RECEIVE_ASSETS as readonly unknown[]).includes(value);

/** Largest non-hardened child index (BIP32): receive indices run 0 .. 2^31 - 1. */
export const MAX_RECEIVE_INDEX = HARDENED_OFFSET - 1;

/** Largest account index n of an account path `…/n'`: the hardened child n + 2^31 must fit 32 bits, so n runs 0 .. 2^31 - 1. */
export const MAX_ACCOUNT_INDEX = HARDENED_OFFSET - 1;

/** The chain networks a deployment runs on (CRYPTO_NETWORK). */
export const CHAIN_NETWORKS = ['testnet', 'regtest', 'mainnet'] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

/** CRYPTO_NETWORK when unset: worthless test coins. */
export const DEFAULT_CHAIN_NETWORK: ChainNetwork = 'testnet';

/** Bitcoin testnet (testnet3/testnet4/signet share the `tb` HRP). */
export const BTC_TESTNET: BTC_NETWORK = { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
/** Bitcoin regtest (Bitcoin Core's chainparams: testnet's version bytes, HRP `bcrt`). */
export const BTC_REGTEST: BTC_NETWORK = { ...BTC_TESTNET, bech32: 'bcrt' };
export const BTC_MAINNET: BTC_NETWORK = { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 };
/** Litecoin testnet: bech32 HRP `tltc`; legacy version bytes as in Litecoin Core's chainparams (unused here). */
export const LTC_TESTNET: BTC_NETWORK = { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef };
/** Litecoin regtest (Litecoin Core's chainparams: testnet's version bytes, HRP `rltc`). */
export const LTC_REGTEST: BTC_NETWORK = { ...LTC_TESTNET, bech32: 'rltc' };
export const LTC_MAINNET: BTC_NETWORK = { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 };

/** BIP32 / SLIP-132 version bytes of serialized extended keys. */
export const XPUB_VERSIONS = {
  xpub: 0x0488b21e, // BIP32 mainnet public
  tpub: 0x043587cf, // BIP32 testnet public
  vpub: 0x045f1cf6, // SLIP-132 testnet BIP84 (P2WPKH) public
  ttub: 0x0436f6e1, // SLIP-132 Litecoin testnet public
  upub: 0x044a5262, // SLIP-132 testnet BIP49 (P2SH-P2WPKH) public
  ypub: 0x049d7cb2, // SLIP-132 mainnet BIP49 public
  zpub: 0x04b24746, // SLIP-132 mainnet BIP84 public
  Ltub: 0x019da462, // SLIP-132 Litecoin mainnet public
  Mtub: 0x01b26ef6, // SLIP-132 Litecoin mainnet BIP49 public
} as const;
type XpubPrefix = keyof typeof XPUB_VERSIONS;

/** Private-key versions: recognised only to refuse them with a clear message. */
const PRIVATE_VERSIONS: Record<number, string> = {
  0x0488ade4: 'xprv',
  0x04358394: 'tprv',
  0x045f18bc: 'vprv',
  0x044a4e28: 'uprv',
  0x049d7878: 'yprv',
  0x04b2430c: 'zprv',
  0x0436ef7d: 'ttpv',
  0x019d9cfe: 'Ltpv',
  0x01b26792: 'Mtpv',
};

interface AssetScheme {
  accepted: readonly XpubPrefix[];
  /** BIP43 purpose and SLIP-44 coin type: the account key is at m/purpose'/coinType'/n'. */
  purpose: number;
  coinType: number;
  /** What the key is, with its article, for error messages. */
  describe: string;
  /** Address encoding of a UTXO chain; EVM addresses are the same on every network. */
  address?: BTC_NETWORK;
}

const TEST_UTXO = { accepted: ['vpub', 'tpub'], purpose: 84, coinType: 1 } as const;
const EVM = { ETH: { accepted: ['xpub', 'tpub'], purpose: 44, coinType: 60, describe: 'an Ethereum BIP44 (coin 60) account key' }, MATIC: { accepted: ['xpub', 'tpub'], purpose: 44, coinType: 60, describe: 'a Polygon BIP44 (coin 60) account key' } } as const;

/** Each asset's key and address scheme on each network. */
export const RECEIVE_SCHEMES: Record<ChainNetwork, Record<ReceiveAsset, AssetScheme>> = {
  testnet: {
    BTC: { ...TEST_UTXO, describe: 'a Bitcoin testnet BIP84 (P2WPKH) account key', address: BTC_TESTNET },
    LTC: { ...TEST_UTXO, accepted: ['vpub', 'tpub', 'ttub'], describe: 'a Litecoin testnet BIP84 (P2WPKH) account key', address: LTC_TESTNET },
    ...EVM,
  },
  regtest: {
    BTC: { ...TEST_UTXO, describe: 'a Bitcoin testnet/regtest BIP84 (P2WPKH) account key', address: BTC_REGTEST },
    LTC: { ...TEST_UTXO, accepted: ['vpub', 'tpub', 'ttub'], describe: 'a Litecoin testnet/regtest BIP84 (P2WPKH) account key', address: LTC_REGTEST },
    ...EVM,
  },
  mainnet: {
    BTC: { accepted: ['zpub', 'xpub'], purpose: 84, coinType: 0, describe: 'a Bitcoin mainnet BIP84 (P2WPKH) account key', address: BTC_MAINNET },
    LTC: { accepted: ['zpub', 'xpub', 'Ltub'], purpose: 84, coinType: 2, describe: 'a Litecoin mainnet BIP84 (P2WPKH) account key', address: LTC_MAINNET },
    ...EVM,
  },
};

/** Key prefixes that only a mainnet wallet exports, and those only a test-network wallet exports (for the refusal's reason). */
const MAINNET_ONLY_PREFIXES: readonly string[] = ['zpub', 'ypub', 'Ltub', 'Mtub'];
const TEST_ONLY_PREFIXES: readonly string[] = ['vpub', 'upub', 'ttub'];

/** BIP32 path of the asset's account key for account index `account` (0 .. MAX_ACCOUNT_INDEX), e.g. m/84'/1'/0'. */
export function accountKeyPath(network: ChainNetwork, asset: ReceiveAsset, account: number): string {
  if (!Number.isSafeInteger(account) || account < 0 || account > MAX_ACCOUNT_INDEX) {
    throw new RangeError(`account index must be an integer 0..${MAX_ACCOUNT_INDEX}, got ${account}`);
  }
  const { purpose, coinType } = RECEIVE_SCHEMES[network][asset];
  return `m/${purpose}'/${coinType}'/${account}'`;
}

/** The full BIP32 path of receive index `i` under account `account` (default 0; documentation, logs, tests). */
export const receivePath = (network: ChainNetwork, asset: ReceiveAsset, index: number, account = 0): string => `${accountKeyPath(network, asset, account)}/0/${index}`;

/** An extended key that cannot be used for an asset. The message says why and what is expected. */
export class InvalidXpubError extends Error {
  constructor(
    readonly asset: ReceiveAsset,
    reason: string,
  ) {
    super(reason);
    this.name = 'InvalidXpubError';
  }
}

const base58check = createBase58check(sha256);

const prefixOf = (version: number): string | undefined =>
  (Object.keys(XPUB_VERSIONS) as XpubPrefix[]).find((prefix) => XPUB_VERSIONS[prefix] === version) ?? PRIVATE_VERSIONS[version];

/**
 * Parses and validates an account-level extended public key for `asset`: base58check checksum, 78-byte payload,
 * version bytes accepted for the asset (mainnet, BIP49 and private keys are refused with a specific message),
 * depth 3 with a hardened account index, and a valid compressed secp256k1 point.
 */
export function parseAccountXpub(network: ChainNetwork, asset: ReceiveAsset, extendedKey: string): HDKey {
  const scheme = RECEIVE_SCHEMES[network][asset];
  // Messages name account 0', the path wallets export first; any hardened account index is accepted.
  const accountPath = accountKeyPath(network, asset, 0);
  const expected = `${scheme.describe} (${scheme.accepted.join(' or ')}, exported at ${accountPath})`;
  const text = extendedKey.trim();
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text);
  } catch {
    throw new InvalidXpubError(asset, `${asset}: not a valid extended key (base58check decoding failed); expected ${expected}.`);
  }
  if (payload.length !== 78) {
    throw new InvalidXpubError(asset, `${asset}: not a valid extended key (payload is ${payload.length} bytes, BIP32 requires 78); expected ${expected}.`);
  }
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const version = view.getUint32(0);
  const prefix = prefixOf(version);
  if (PRIVATE_VERSIONS[version] !== undefined) {
    throw new InvalidXpubError(asset, `${asset}: this is an extended PRIVATE key (${prefix}); the service never holds private keys, export the account's public key instead: ${expected}.`);
  }
  if (prefix === undefined || !(scheme.accepted as readonly string[]).includes(prefix)) {
    const what = prefix === undefined ? `unknown extended-key version bytes 0x${version.toString(16).padStart(8, '0')}` : `${prefix} keys are not accepted`;
    const why = refusedPrefixReason(network, prefix);
    throw new InvalidXpubError(asset, `${asset}: ${what}${why}; expected ${expected}.`);
  }
  const depth = payload[4]!;
  const childNumber = view.getUint32(9);
  if (depth !== 3) {
    throw new InvalidXpubError(asset, `${asset}: the key has depth ${depth}; an account-level key (depth 3, ${accountPath}) is required.`);
  }
  if (childNumber < HARDENED_OFFSET) {
    throw new InvalidXpubError(asset, `${asset}: the key's account index ${childNumber} is not hardened; an account-level key (${accountPath}) is required.`);
  }
  try {
    return HDKey.fromExtendedKey(text, { public: version, private: 0 });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InvalidXpubError(asset, `${asset}: the key does not hold a valid public key (${detail}); expected ${expected}.`);
  }
}

/** Why a known prefix is refused on `network`, in brackets; empty when there is nothing more to say. */
function refusedPrefixReason(network: ChainNetwork, prefix: string | undefined): string {
  if (prefix === 'upub' || prefix === 'ypub' || prefix === 'Mtub') return ' (BIP49 P2SH-wrapped SegWit; native P2WPKH is required)';
  if (network !== 'mainnet' && (prefix === 'xpub' || (prefix !== undefined && MAINNET_ONLY_PREFIXES.includes(prefix)))) return ` (mainnet; this gateway runs on ${network})`;
  if (network === 'mainnet' && prefix !== undefined && (prefix === 'tpub' || TEST_ONLY_PREFIXES.includes(prefix))) return ' (a test-network key; this gateway runs on mainnet)';
  return '';
}

/**
 * The identity of an extended public key: SHA-256 (hex) of its chain code and public key, the only inputs of public
 * derivation. Version bytes (vpub, tpub, xpub, …), depth, parent fingerprint and child number only describe the key, so
 * the same key exported under another prefix has the same identity and derives the same addresses.
 */
export function receiveKeyIdentity(key: HDKey): string {
  if (!key.chainCode || !key.publicKey) throw new Error('not an extended public key');
  return Buffer.from(sha256(new Uint8Array([...key.chainCode, ...key.publicKey]))).toString('hex');
}

/** Throws InvalidXpubError unless `extendedKey` is usable for `asset`. */
export function assertAccountXpub(network: ChainNetwork, asset: ReceiveAsset, extendedKey: string): void {
  parseAccountXpub(network, asset, extendedKey);
}

/** EIP-55 mixed-case checksum of a 20-byte address given as hex (with or without 0x, any case). */
export function toChecksumAddress(address: string): `0x${string}` {
  const hex = address.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw new Error(`not a 20-byte hex address: ${address}`);
  const lower = hex.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as `0x${string}`;
}

/** Ethereum address of a secp256k1 public key: last 20 bytes of keccak256(uncompressed X||Y), EIP-55 checksummed. */
export function evmAddressFromPublicKey(publicKey: Uint8Array): `0x${string}` {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const digest = keccak_256(uncompressed.subarray(1));
  return toChecksumAddress(Buffer.from(digest.subarray(12)).toString('hex'));
}

/** Address of the public key for `asset` on `network` (P2WPKH for BTC/LTC, EIP-55 for ETH/MATIC on every network). */
export function addressFromPublicKey(network: ChainNetwork, asset: ReceiveAsset, publicKey: Uint8Array): string {
  const utxo = RECEIVE_SCHEMES[network][asset].address;
  return utxo ? p2wpkh(publicKey, utxo).address! : evmAddressFromPublicKey(publicKey);
}

function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_RECEIVE_INDEX) {
    throw new RangeError(`receive index must be an integer 0..${MAX_RECEIVE_INDEX}, got ${index}`);
  }
}

/** Receive address at `index` on the external chain (`<account key>/0/index`). Accepts a string or a parsed key. */
export function deriveReceiveAddress(network: ChainNetwork, asset: ReceiveAsset, accountXpub: string | HDKey, index: number): string {
  assertIndex(index);
  const account = typeof accountXpub === 'string' ? parseAccountXpub(network, asset, accountXpub) : accountXpub;
  const child = account.deriveChild(0).deriveChild(index);
  return addressFromPublicKey(network, asset, child.publicKey!);
}
