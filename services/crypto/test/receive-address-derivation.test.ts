// Receive-address derivation against published vectors (BIP32, BIP84, EIP-55, the "abandon … about" mnemonic)
// and an independent second path (private derivation from the seed + hand-built hash160/bech32/keccak).
import { describe, expect, it } from '@jest/globals';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, createBase58check, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { NETWORK, p2wpkh } from '@scure/btc-signer';
import {
  InvalidXpubError,
  MAX_ACCOUNT_INDEX,
  MAX_RECEIVE_INDEX,
  RECEIVE_ASSETS,
  XPUB_VERSIONS,
  accountKeyPath,
  addressFromPublicKey,
  deriveReceiveAddress,
  parseAccountXpub,
  receiveKeyIdentity,
  receivePath,
  toChecksumAddress,
  type ReceiveAsset,
} from '../src/modules/receive-addresses/derivation.js';
import { TEST_MNEMONIC, testMnemonicAccountKeys } from '../src/modules/receive-addresses/test-mnemonic.js';
import { withVersion } from './extended-keys.js';

const base58check = createBase58check(sha256);
/** First receive addresses of the demo account (account 1' of the test mnemonic), as the README lists them. */
const DEMO_FIRST_ADDRESSES = { BTC: 'tb1qp7shgcwx3mpzgxjvff0d77vuhchcldzfy60x6s', LTC: 'tltc1qp7shgcwx3mpzgxjvff0d77vuhchcldzfajdc2e', ETH: '0x78839F6054d7ed13918bAe0473BA31b1Ca9D7265' };

// BIP32 test vector 1 (seed 000102030405060708090a0b0c0d0e0f), https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki
const BIP32_V1 = {
  master: 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
  m_0h_1_2h: 'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5',
  m_0h_1_2h_2: 'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
  m_0h_1_2h_2_1000000000: 'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
  xprv_m_0h_1_2h: 'xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM',
};

// BIP84 test vectors ("abandon … about", account 0), https://github.com/bitcoin/bips/blob/master/bip-0084.mediawiki
const BIP84 = {
  zpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  receive0: { pub: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c', address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' },
  receive1: { pub: '03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77', address: 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g' },
  change0: { address: 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el' },
};

/** Independent path: private derivation from the seed (CKDpriv, not the service's CKDpub) at the full path. */
const seed = mnemonicToSeedSync(TEST_MNEMONIC);
const publicKeyAt = (path: string): Uint8Array => HDKey.fromMasterSeed(seed).derive(path).publicKey!;
/** Hand-built P2WPKH: bech32(hrp, [0, words(ripemd160(sha256(pubkey)))]). */
const manualP2wpkh = (hrp: string, publicKey: Uint8Array): string =>
  bech32.encode(hrp, [0, ...bech32.toWords(ripemd160(sha256(publicKey)))]);
/** Hand-built Ethereum address (lower case): keccak256(uncompressed X||Y)[12..]. */
const manualEthLower = (publicKey: Uint8Array): string =>
  `0x${hex.encode(keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).subarray(1)).subarray(12))}`;

describe('BIP32 test vector 1: public derivation from an account-level xpub', () => {
  it('accepts m/0H/1/2H (depth 3, hardened) and derives its published public children', () => {
    const account = parseAccountXpub('testnet', 'ETH', BIP32_V1.m_0h_1_2h);
    expect(account.privateKey).toBeNull();
    expect(account.depth).toBe(3);
    const child = account.deriveChild(2);
    expect(child.publicExtendedKey).toBe(BIP32_V1.m_0h_1_2h_2);
    expect(child.deriveChild(1_000_000_000).publicExtendedKey).toBe(BIP32_V1.m_0h_1_2h_2_1000000000);
  });

  it('refuses the master key (depth 0) and the private key of the same node', () => {
    expect(() => parseAccountXpub('testnet', 'ETH', BIP32_V1.master)).toThrow('depth 0; an account-level key (depth 3');
    expect(() => parseAccountXpub('testnet', 'ETH', BIP32_V1.xprv_m_0h_1_2h)).toThrow(/extended PRIVATE key \(xprv\); the service never holds private keys/);
  });
});

describe('BIP84 test vectors (mainnet zpub) and the same key on testnet', () => {
  const account = HDKey.fromExtendedKey(BIP84.zpub, { public: XPUB_VERSIONS.zpub, private: 0 });

  it('derives the published receive and change public keys and addresses', () => {
    const r0 = account.deriveChild(0).deriveChild(0).publicKey!;
    const r1 = account.deriveChild(0).deriveChild(1).publicKey!;
    expect(hex.encode(r0)).toBe(BIP84.receive0.pub);
    expect(hex.encode(r1)).toBe(BIP84.receive1.pub);
    expect(p2wpkh(r0, NETWORK).address).toBe(BIP84.receive0.address);
    expect(p2wpkh(r1, NETWORK).address).toBe(BIP84.receive1.address);
    expect(p2wpkh(account.deriveChild(1).deriveChild(0).publicKey!, NETWORK).address).toBe(BIP84.change0.address);
    expect(manualP2wpkh('bc', r0)).toBe(BIP84.receive0.address);
  });

  it('the service derivation (accepting a parsed key) yields the same witness programs under the testnet HRP', () => {
    for (const [index, expected] of [BIP84.receive0.address, BIP84.receive1.address].entries()) {
      const testnet = deriveReceiveAddress('testnet', 'BTC', account, index);
      expect(testnet.startsWith('tb1q')).toBe(true);
      expect(bech32.decode(testnet as `${string}1${string}`).words).toEqual(bech32.decode(expected as `${string}1${string}`).words);
      const litecoin = deriveReceiveAddress('testnet', 'LTC', account, index);
      expect(litecoin.startsWith('tltc1q')).toBe(true);
      expect(bech32.decode(litecoin as `${string}1${string}`).words).toEqual(bech32.decode(expected as `${string}1${string}`).words);
    }
  });

  it('refuses the mainnet zpub as a BTC or LTC receive key', () => {
    expect(() => parseAccountXpub('testnet', 'BTC', BIP84.zpub)).toThrow('BTC: zpub keys are not accepted (mainnet; this gateway runs on testnet)');
    expect(() => parseAccountXpub('testnet', 'LTC', BIP84.zpub)).toThrow(InvalidXpubError);
  });
});

describe('CRYPTO_NETWORK: the same derivation under each network\'s scheme', () => {
  it('mainnet takes the published BIP84 zpub and gives its published addresses (BIP84 vectors); a test key is refused', () => {
    expect(deriveReceiveAddress('mainnet', 'BTC', BIP84.zpub, 0)).toBe(BIP84.receive0.address);
    expect(deriveReceiveAddress('mainnet', 'BTC', BIP84.zpub, 1)).toBe(BIP84.receive1.address);
    expect(accountKeyPath('mainnet', 'BTC', 0)).toBe("m/84'/0'/0'");
    expect(accountKeyPath('mainnet', 'LTC', 0)).toBe("m/84'/2'/0'");
    expect(accountKeyPath('mainnet', 'ETH', 0)).toBe("m/44'/60'/0'");
    const testKey = testMnemonicAccountKeys(1).BTC;
    expect(() => parseAccountXpub('mainnet', 'BTC', testKey)).toThrow('BTC: vpub keys are not accepted (a test-network key; this gateway runs on mainnet)');
    expect(() => parseAccountXpub('mainnet', 'LTC', withVersion(testKey, XPUB_VERSIONS.tpub))).toThrow('(a test-network key; this gateway runs on mainnet)');
  });

  it('litecoin mainnet: ltc1 addresses from the key at m/84\'/2\'/0\' (checked by private derivation and a hand-built bech32)', () => {
    const node = HDKey.fromMasterSeed(seed).derive("m/84'/2'/0'");
    const zpub = withVersion(node.publicExtendedKey, XPUB_VERSIONS.zpub);
    const address = deriveReceiveAddress('mainnet', 'LTC', zpub, 0);
    expect(address).toBe(manualP2wpkh('ltc', publicKeyAt("m/84'/2'/0'/0/0")));
    expect(address.startsWith('ltc1q')).toBe(true);
  });

  it('regtest keeps the test keys and gives bcrt1/rltc1 addresses of the same witness programs; EVM addresses are the same on every network', () => {
    const keys = testMnemonicAccountKeys(1);
    for (const index of [0, 7]) {
      const program = publicKeyAt(`m/84'/1'/1'/0/${index}`);
      expect(deriveReceiveAddress('regtest', 'BTC', keys.BTC, index)).toBe(manualP2wpkh('bcrt', program));
      expect(deriveReceiveAddress('regtest', 'LTC', keys.LTC, index)).toBe(manualP2wpkh('rltc', program));
      expect(deriveReceiveAddress('testnet', 'BTC', keys.BTC, index)).toBe(manualP2wpkh('tb', program));
      for (const network of ['testnet', 'regtest', 'mainnet'] as const) {
        expect(deriveReceiveAddress(network, 'ETH', keys.ETH, index)).toBe(toChecksumAddress(manualEthLower(publicKeyAt(`m/44'/60'/1'/0/${index}`))));
      }
    }
  });
});

describe('the fixed test mnemonic ("abandon … about", a public test vector)', () => {
  const keys = testMnemonicAccountKeys(0);

  it('gives account-level public keys only, serialized vpub (BTC, LTC) and xpub (ETH, MATIC)', () => {
    expect(Object.keys(keys).sort()).toEqual([...RECEIVE_ASSETS].sort());
    // BIP84 testnet account 0 of this mnemonic, as published alongside the tb1q6rz28… address.
    expect(keys.BTC).toBe('vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc');
    expect(keys.LTC).toBe(keys.BTC);
    expect(keys.ETH).toMatch(/^xpub/);
    expect(keys.MATIC).toBe(keys.ETH);
    for (const asset of RECEIVE_ASSETS) {
      const key = parseAccountXpub('testnet', asset, keys[asset]);
      expect(key.privateKey).toBeNull();
      expect(key.depth).toBe(3);
    }
    // The same nodes derived privately from the seed serialize to the same public keys.
    expect(HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'").publicExtendedKey).toBe(keys.ETH);
    expect(withVersion(HDKey.fromMasterSeed(seed).derive("m/84'/1'/0'").publicExtendedKey, XPUB_VERSIONS.vpub)).toBe(keys.BTC);
  });

  it("ETH m/44'/60'/0'/0/0 is the published 0x9858EfFD232B4033E47d90003D41EC34EcaEda94; MATIC shares the scheme", () => {
    expect(receivePath('testnet', 'ETH', 0)).toBe("m/44'/60'/0'/0/0");
    expect(deriveReceiveAddress('testnet', 'ETH', keys.ETH, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(deriveReceiveAddress('testnet', 'MATIC', keys.MATIC, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it("BTC testnet m/84'/1'/0'/0/i: tb1q6rz28… / tb1qd7spv… and equal to the independent private-derivation path", () => {
    expect(receivePath('testnet', 'BTC', 0)).toBe("m/84'/1'/0'/0/0");
    expect(deriveReceiveAddress('testnet', 'BTC', keys.BTC, 0)).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
    expect(deriveReceiveAddress('testnet', 'BTC', keys.BTC, 1)).toBe('tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97');
  });

  it('every asset agrees with the independent path for a spread of indices', () => {
    for (const index of [0, 1, 2, 19, 20, 1000, MAX_RECEIVE_INDEX]) {
      const btcPub = publicKeyAt(`m/84'/1'/0'/0/${index}`);
      const ethPub = publicKeyAt(`m/44'/60'/0'/0/${index}`);
      expect(deriveReceiveAddress('testnet', 'BTC', keys.BTC, index)).toBe(manualP2wpkh('tb', btcPub));
      expect(deriveReceiveAddress('testnet', 'LTC', keys.LTC, index)).toBe(manualP2wpkh('tltc', btcPub));
      const eth = deriveReceiveAddress('testnet', 'ETH', keys.ETH, index);
      expect(eth.toLowerCase()).toBe(manualEthLower(ethPub));
      expect(eth).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(deriveReceiveAddress('testnet', 'MATIC', keys.MATIC, index)).toBe(eth);
    }
  });

  it('LTC testnet addresses use the tltc HRP', () => {
    const address = deriveReceiveAddress('testnet', 'LTC', keys.LTC, 0);
    expect(address).toBe('tltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9pesrjxk');
    expect(bech32.decode(address as `${string}1${string}`).prefix).toBe('tltc');
  });

  it('indices are distinct addresses; out-of-range indices are refused', () => {
    const addresses = new Set(Array.from({ length: 25 }, (_, i) => deriveReceiveAddress('testnet', 'BTC', keys.BTC, i)));
    expect(addresses.size).toBe(25);
    for (const bad of [-1, 1.5, MAX_RECEIVE_INDEX + 1, Number.NaN]) {
      expect(() => deriveReceiveAddress('testnet', 'ETH', keys.ETH, bad)).toThrow(RangeError);
    }
  });
});

describe("the development fallback: account n' of the test mnemonic for the account with id n", () => {
  it("derives BTC/LTC at m/84'/1'/n' (vpub) and ETH/MATIC at m/44'/60'/n' (xpub), each account its own keys", () => {
    for (const account of [1, 2, 7]) {
      const keys = testMnemonicAccountKeys(account);
      expect(accountKeyPath('testnet', 'BTC', account)).toBe(`m/84'/1'/${account}'`);
      expect(accountKeyPath('testnet', 'MATIC', account)).toBe(`m/44'/60'/${account}'`);
      expect(keys.BTC).toBe(withVersion(HDKey.fromMasterSeed(seed).derive(`m/84'/1'/${account}'`).publicExtendedKey, XPUB_VERSIONS.vpub));
      expect(keys.LTC).toBe(keys.BTC);
      expect(keys.ETH).toBe(HDKey.fromMasterSeed(seed).derive(`m/44'/60'/${account}'`).publicExtendedKey);
      expect(keys.MATIC).toBe(keys.ETH);
      expect(receivePath('testnet', 'BTC', 4, account)).toBe(`m/84'/1'/${account}'/0/4`);
      expect(deriveReceiveAddress('testnet', 'BTC', keys.BTC, 4)).toBe(manualP2wpkh('tb', publicKeyAt(`m/84'/1'/${account}'/0/4`)));
      expect(deriveReceiveAddress('testnet', 'ETH', keys.ETH, 4).toLowerCase()).toBe(manualEthLower(publicKeyAt(`m/44'/60'/${account}'/0/4`)));
    }
    const firstAddresses = [0, 1, 2, 3].map((account) => deriveReceiveAddress('testnet', 'BTC', testMnemonicAccountKeys(account).BTC, 0));
    expect(new Set(firstAddresses).size).toBe(4);
  });

  it('the demo account (id 1 on a fresh database) has these first addresses (README "Demo / test keys")', () => {
    const demo = testMnemonicAccountKeys(1);
    expect({
      BTC: deriveReceiveAddress('testnet', 'BTC', demo.BTC, 0),
      LTC: deriveReceiveAddress('testnet', 'LTC', demo.LTC, 0),
      ETH: deriveReceiveAddress('testnet', 'ETH', demo.ETH, 0),
    }).toEqual(DEMO_FIRST_ADDRESSES);
  });

  it('account indices run 0 .. 2^31 - 1 (hardened child n + 2^31 fits 32 bits); anything else is refused', () => {
    expect(MAX_ACCOUNT_INDEX).toBe(2 ** 31 - 1);
    const last = parseAccountXpub('testnet', 'ETH', testMnemonicAccountKeys(MAX_ACCOUNT_INDEX).ETH);
    expect(last.index).toBe(2 ** 32 - 1);
    for (const bad of [-1, 1.5, MAX_ACCOUNT_INDEX + 1, Number.NaN]) {
      expect(() => testMnemonicAccountKeys(bad)).toThrow(RangeError);
      expect(() => accountKeyPath('testnet', 'BTC', bad)).toThrow(RangeError);
    }
  });
});

describe('receiveKeyIdentity: the key material (chain code + public key), not its text', () => {
  const btc = testMnemonicAccountKeys(0).BTC;
  const identity = (asset: ReceiveAsset, key: string) => receiveKeyIdentity(parseAccountXpub('testnet', asset, key));

  it('is the same for the key under every prefix and for every asset it serves', () => {
    const expected = identity('BTC', btc);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(identity('BTC', withVersion(btc, XPUB_VERSIONS.tpub))).toBe(expected);
    expect(identity('LTC', withVersion(btc, XPUB_VERSIONS.ttub))).toBe(expected);
    expect(identity('ETH', withVersion(btc, XPUB_VERSIONS.xpub))).toBe(expected);
  });

  it('differs between keys, and between accounts of one wallet', () => {
    const identities = [0, 1, 2].flatMap((account) => {
      const keys = testMnemonicAccountKeys(account);
      return [identity('BTC', keys.BTC), identity('ETH', keys.ETH)];
    });
    expect(new Set(identities).size).toBe(6);
  });
});

describe('EIP-55 checksum (vectors from the EIP)', () => {
  const vectors = [
    // All caps
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    // All lower
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    // Normal
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(vectors)('%s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(toChecksumAddress(address.slice(2).toUpperCase())).toBe(address);
  });

  it('refuses input that is not 20 bytes of hex', () => {
    expect(() => toChecksumAddress('0x1234')).toThrow('not a 20-byte hex address');
    expect(() => toChecksumAddress(`0x${'g'.repeat(40)}`)).toThrow('not a 20-byte hex address');
  });

  it('addressFromPublicKey renders EVM addresses checksummed and BTC/LTC as testnet P2WPKH', () => {
    const pub = publicKeyAt("m/44'/60'/0'/0/0");
    expect(addressFromPublicKey('testnet', 'ETH', pub)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(addressFromPublicKey('testnet', 'BTC', pub)).toBe(manualP2wpkh('tb', pub));
    expect(addressFromPublicKey('testnet', 'LTC', pub)).toBe(manualP2wpkh('tltc', pub));
  });
});

describe('extended public key validation', () => {
  const keys = testMnemonicAccountKeys(0);
  const btcAccount = keys.BTC;

  it.each<[ReceiveAsset, string]>([
    ['BTC', 'vpub'],
    ['BTC', 'tpub'],
    ['LTC', 'vpub'],
    ['LTC', 'tpub'],
    ['LTC', 'ttub'],
  ])('%s accepts %s and derives the same addresses whatever the prefix', (asset, prefix) => {
    const key = withVersion(btcAccount, XPUB_VERSIONS[prefix as keyof typeof XPUB_VERSIONS]);
    expect(key.startsWith(prefix)).toBe(true);
    expect(deriveReceiveAddress('testnet', asset, key, 3)).toBe(deriveReceiveAddress('testnet', asset, btcAccount, 3));
  });

  it('ETH and MATIC accept xpub and tpub', () => {
    const tpub = withVersion(keys.ETH, XPUB_VERSIONS.tpub);
    expect(tpub.startsWith('tpub')).toBe(true);
    expect(deriveReceiveAddress('testnet', 'MATIC', tpub, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it.each<[string, ReceiveAsset, string, string | RegExp]>([
    ['garbage', 'BTC', 'not-a-key', 'BTC: not a valid extended key (base58check decoding failed); expected a Bitcoin testnet BIP84 (P2WPKH) account key (vpub or tpub'],
    ['an empty string', 'BTC', '', 'base58check decoding failed'],
    ['a 40-byte payload', 'BTC', base58check.encode(new Uint8Array(40)), 'payload is 40 bytes, BIP32 requires 78'],
    ['a mainnet xpub for BTC', 'BTC', withVersion(btcAccount, XPUB_VERSIONS.xpub), 'BTC: xpub keys are not accepted (mainnet; this gateway runs on testnet)'],
    ['a mainnet Ltub for LTC', 'LTC', withVersion(btcAccount, XPUB_VERSIONS.Ltub), 'LTC: Ltub keys are not accepted (mainnet'],
    ['a BIP49 upub', 'BTC', withVersion(btcAccount, XPUB_VERSIONS.upub), 'BTC: upub keys are not accepted (BIP49 P2SH-wrapped SegWit; native P2WPKH is required)'],
    ['a Litecoin ttub for BTC', 'BTC', withVersion(btcAccount, XPUB_VERSIONS.ttub), 'BTC: ttub keys are not accepted; expected'],
    ['a vpub for ETH', 'ETH', btcAccount, 'ETH: vpub keys are not accepted; expected an Ethereum BIP44 (coin 60) account key (xpub or tpub'],
    ['unknown version bytes', 'ETH', withVersion(keys.ETH, 0x01020304), 'ETH: unknown extended-key version bytes 0x01020304'],
    ['a vprv (private key)', 'BTC', withVersion(btcAccount, 0x045f18bc), /BTC: this is an extended PRIVATE key \(vprv\)/],
  ])('refuses %s (%s)', (_label, asset, key, message) => {
    expect(() => parseAccountXpub('testnet', asset, key)).toThrow(message);
  });

  it('refuses a checksum error (one character changed)', () => {
    const i = 60;
    const tampered = btcAccount.slice(0, i) + (btcAccount[i] === 'a' ? 'b' : 'a') + btcAccount.slice(i + 1);
    expect(() => parseAccountXpub('testnet', 'BTC', tampered)).toThrow('base58check decoding failed');
  });

  it('refuses keys that are not account level: wrong depth, non-hardened account index, invalid point', () => {
    const root = HDKey.fromMasterSeed(seed);
    expect(() => parseAccountXpub('testnet', 'ETH', root.derive("m/44'/60'").publicExtendedKey)).toThrow('ETH: the key has depth 2; an account-level key (depth 3, m/44\'/60\'/0\') is required.');
    expect(() => parseAccountXpub('testnet', 'ETH', root.derive("m/44'/60'/0'/0").publicExtendedKey)).toThrow('depth 4');
    expect(() => parseAccountXpub('testnet', 'ETH', root.derive("m/44'/60'/0").publicExtendedKey)).toThrow('the key\'s account index 0 is not hardened');
    const payload = base58check.decode(keys.ETH);
    payload.set([0x02, ...new Uint8Array(32).fill(0xff)], 45);
    expect(() => parseAccountXpub('testnet', 'ETH', base58check.encode(payload))).toThrow('ETH: the key does not hold a valid public key');
  });

  it('trims surrounding whitespace of pasted keys and carries the asset on the error', () => {
    expect(deriveReceiveAddress('testnet', 'ETH', `  ${keys.ETH}\n`, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    try {
      parseAccountXpub('testnet', 'LTC', 'nope');
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidXpubError);
      expect((error as InvalidXpubError).asset).toBe('LTC');
    }
  });
});
