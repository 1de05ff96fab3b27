// The pure parts of reports: the status machine, the share token, the signed download URL and the PDF's text filter.
import { describe, expect, it } from '@jest/globals';
import { REPORT_STATUSES, canTransition, hasPdf, isFinal, type ReportStatus } from '../src/modules/reports/report-status.js';
import { hashShareToken, isShareToken, newShareToken } from '../src/modules/reports/report-share.js';
import { REPORT_URL_EXPIRY_STEP_SECONDS, REPORT_URL_TTL_SECONDS, ReportUrlSigner } from '../src/modules/reports/report-urls.js';
import { printable } from '../src/modules/reports/report-pdf.js';

describe('report status machine', () => {
  const allowed: Array<[ReportStatus, ReportStatus]> = [
    ['queued', 'rendering'],
    ['queued', 'failed'],
    ['rendering', 'rendering'],
    ['rendering', 'ready'],
    ['rendering', 'failed'],
  ];

  it('allows exactly the documented transitions', () => {
    for (const from of REPORT_STATUSES) {
      for (const to of REPORT_STATUSES) {
        const expected = allowed.some(([a, b]) => a === from && b === to);
        expect([from, to, canTransition(from, to)]).toEqual([from, to, expected]);
      }
    }
  });

  it('ready and failed are final; only ready has a PDF', () => {
    expect(REPORT_STATUSES.filter(isFinal)).toEqual(['ready', 'failed']);
    expect(REPORT_STATUSES.filter(hasPdf)).toEqual(['ready']);
    // A queued report is never ready without rendering first.
    expect(canTransition('queued', 'ready')).toBe(false);
  });
});

describe('share tokens', () => {
  it('are prefixed, 256 random bits, different each time, and stored only as their SHA-256', () => {
    const tokens = new Set(Array.from({ length: 100 }, newShareToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^rps_[A-Za-z0-9_-]{43}$/);
      expect(isShareToken(token)).toBe(true);
      expect(hashShareToken(token)).toMatch(/^[0-9a-f]{64}$/);
      expect(hashShareToken(token)).not.toContain(token.slice(4));
    }
    expect(isShareToken('rps_short')).toBe(false);
    expect(isShareToken(`xyz_${'a'.repeat(43)}`)).toBe(false);
  });
});

describe('ReportUrlSigner', () => {
  const sha = 'ab'.repeat(32);
  const now = new Date('2026-11-25T10:20:00Z');
  const signer = new ReportUrlSigner('secret', 'https://photos.example', () => now);

  const parts = (url: string) => {
    const parsed = new URL(url);
    return { path: parsed.pathname, expires: Number(parsed.searchParams.get('expires')), signature: parsed.searchParams.get('signature')! };
  };

  it('signs the report and its PDF hash, valid for at least a day, expiry on the hour', () => {
    const { path, expires, signature } = parts(signer.url(7, sha));
    expect(path).toBe('/api/v1/reports/7/pdf');
    expect(expires % REPORT_URL_EXPIRY_STEP_SECONDS).toBe(0);
    expect(expires * 1000 - now.getTime()).toBeGreaterThanOrEqual(REPORT_URL_TTL_SECONDS * 1000);
    expect(signer.valid(7, sha, expires, signature)).toBe(true);
    // Another report, another rendering, a stretched expiry, another secret: refused.
    expect(signer.valid(8, sha, expires, signature)).toBe(false);
    expect(signer.valid(7, 'cd'.repeat(32), expires, signature)).toBe(false);
    expect(signer.valid(7, sha, expires + 3600, signature)).toBe(false);
    expect(new ReportUrlSigner('other', 'https://photos.example', () => now).valid(7, sha, expires, signature)).toBe(false);
    expect(signer.valid(7, sha, expires, 'not-a-signature')).toBe(false);
  });

  it('refuses an expired URL', () => {
    const { expires, signature } = parts(signer.url(7, sha));
    const later = new ReportUrlSigner('secret', 'https://photos.example', () => new Date(expires * 1000 + 1));
    expect(later.valid(7, sha, expires, signature)).toBe(false);
  });

  it('makes share URLs under /api/v1/shared-reports', () => {
    expect(signer.shareUrl('rps_x')).toBe('https://photos.example/api/v1/shared-reports/rps_x');
  });
});

describe('printable (the PDF\'s built-in fonts)', () => {
  it('keeps Windows-1252 text and replaces what the fonts cannot show', () => {
    expect(printable('Café “Süd” – 5 € \n')).toBe('Café “Süd” – 5 € \n');
    expect(printable('日本 😀 Zażółć')).toBe('?? ? Za?ó??');
    expect(printable('line one\r\nline two\u0000')).toBe('line one\nline two?');
  });
});
