// The gap-limit arithmetic (pure, no database) and CRYPTO_GAP_LIMIT's validation.
import { describe, expect, it } from '@jest/globals';
import { cryptoEnv } from '../src/config.js';
import { DEFAULT_GAP_LIMIT, receiveAddressGap } from '../src/modules/receive-addresses/index.js';

const gap = (highestDerivedIndex: number | null, highestUsedIndex: number | null, limit = 20) => receiveAddressGap('BTC', { highestDerivedIndex, highestUsedIndex }, limit);

describe('receiveAddressGap', () => {
  it('nothing handed out: no run, no warning', () => {
    expect(gap(null, null)).toEqual({ asset: 'BTC', highestDerivedIndex: null, highestUsedIndex: null, unusedRun: 0, gapLimit: 20, exceedsGapLimit: false, warning: null });
  });

  it('the run is the indices after the last used one; with none used it counts from index 0', () => {
    expect(gap(24, 3).unusedRun).toBe(21);
    expect(gap(24, 24).unusedRun).toBe(0);
    expect(gap(0, null).unusedRun).toBe(1);
    expect(gap(24, null).unusedRun).toBe(25);
  });

  it('exceeds only past the limit: a wallet with gap limit 20 that saw index u still derives u + 20', () => {
    // Last used 3: the wallet looks up to 23. Index 23 is seen (run 20), 24 is not (run 21).
    expect(gap(23, 3)).toMatchObject({ unusedRun: 20, exceedsGapLimit: false, warning: null });
    expect(gap(24, 3)).toMatchObject({ unusedRun: 21, exceedsGapLimit: true });
    // Nothing used: the wallet looks at 0..19.
    expect(gap(19, null).exceedsGapLimit).toBe(false);
    expect(gap(20, null).exceedsGapLimit).toBe(true);
    expect(gap(24, 3, 21).exceedsGapLimit).toBe(false);
  });

  it('the warning names the run, the newest index and the wallet settings to change', () => {
    const { warning } = gap(24, 3);
    expect(warning).toContain('BTC: 21 receive addresses in a row are unused after the last paid one (index 3), more than the gap limit of 20');
    expect(warning).toContain('up to index 24');
    expect(warning).toContain('wallet.change_gap_limit(21)');
    expect(warning).toContain('Sparrow: the wallet\'s Settings → Advanced → Gap limit');
    expect(warning).toContain('Ledger Live cannot change it');
    expect(gap(20, null).warning).toContain('and none has been paid yet');
    const evm = receiveAddressGap('ETH', { highestDerivedIndex: 30, highestUsedIndex: null }, 20).warning;
    expect(evm).toContain('add accounts up to index 30');
    expect(evm).not.toContain('Electrum');
  });

  it('refuses inconsistent input and a limit below 1', () => {
    expect(() => gap(3, 4)).toThrow(RangeError);
    expect(() => gap(null, 0)).toThrow(RangeError);
    expect(() => gap(3, null, 0)).toThrow(RangeError);
  });
});

describe('CRYPTO_GAP_LIMIT', () => {
  const base = { NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@127.0.0.1/x' };
  it('defaults to 20 and takes a whole number from 1', () => {
    expect(cryptoEnv.parse(base).CRYPTO_GAP_LIMIT).toBe(DEFAULT_GAP_LIMIT);
    expect(cryptoEnv.parse({ ...base, CRYPTO_GAP_LIMIT: '50' }).CRYPTO_GAP_LIMIT).toBe(50);
    for (const bad of ['0', '-1', '2.5', 'twenty', '100001']) {
      const parsed = cryptoEnv.safeParse({ ...base, CRYPTO_GAP_LIMIT: bad });
      expect({ bad, ok: parsed.success, path: parsed.error?.issues[0]?.path }).toEqual({ bad, ok: false, path: ['CRYPTO_GAP_LIMIT'] });
    }
  });
});
