// The CSV export's own bounds (GET /api/v1/merchant/sales/export.csv). Its batches hold no database connection between
// them (sales.queries.ts), so a download costs a socket and a little memory for as long as it lasts; these bound that:
// a merchant runs at most BNPL_EXPORTS_PER_MERCHANT downloads at once on an instance (one more answers 429
// `rate_limited`), and a download whose client takes nothing for BNPL_EXPORT_IDLE_TIMEOUT_SECONDS is cut off.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RateLimitedError, envInteger } from '@tributary/kit';
import type { Response } from 'express';

/** Env fields of the bounds (spread into bnplEnv); tests shorten the idle timeout instead of waiting for it. */
export const exportLimitFields = {
  BNPL_EXPORTS_PER_MERCHANT: envInteger(1, 100).default(2),
  BNPL_EXPORT_IDLE_TIMEOUT_SECONDS: envInteger(1, 3_600).default(30),
};

export interface ExportLimitConfig {
  BNPL_EXPORTS_PER_MERCHANT: number;
  BNPL_EXPORT_IDLE_TIMEOUT_SECONDS: number;
}

/** Retry-After of a refused export: about what a small export takes. */
export const EXPORT_BUSY_RETRY_AFTER_SECONDS = 10;

export const exportsBusyMessage = (perMerchant: number) =>
  `A merchant runs at most ${perMerchant} sales export${perMerchant === 1 ? '' : 's'} at once; retry once one has finished.`;

/** The downloads each merchant has running on this instance. */
export class ExportSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly perMerchant: number) {}

  /** Takes one of the merchant's slots (429 when none is free); the returned release gives it back, once. */
  acquire(merchantId: string): () => void {
    const taken = this.running.get(merchantId) ?? 0;
    if (taken >= this.perMerchant) throw new RateLimitedError(EXPORT_BUSY_RETRY_AFTER_SECONDS, exportsBusyMessage(this.perMerchant));
    this.running.set(merchantId, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(merchantId) ?? 1) - 1;
      if (left === 0) this.running.delete(merchantId);
      else this.running.set(merchantId, left);
    };
  }
}

/** Why a download was cut off: its client took nothing for the idle timeout. */
export class IdleDownloadError extends Error {
  constructor(idleMs: number) {
    super(`the client took nothing for ${idleMs / 1000} s`);
    this.name = 'IdleDownloadError';
  }
}

/**
 * Writes `chunks` to `res` with backpressure (the next chunk is pulled only when the client has taken the earlier
 * ones). Each pull restarts the idle clock; a client that takes nothing for `idleMs` has its download destroyed (the
 * connection closed), which rejects with an IdleDownloadError.
 */
export async function pipeWithIdleTimeout(chunks: AsyncIterable<string>, res: Response, idleMs: number): Promise<void> {
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(new IdleDownloadError(idleMs)), idleMs);
  async function* watched(): AsyncGenerator<string> {
    for await (const chunk of chunks) {
      timer.refresh();
      yield chunk;
    }
  }
  try {
    await pipeline(Readable.from(watched()), res, { signal: idle.signal });
  } catch (error) {
    throw idle.signal.aborted ? idle.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}
