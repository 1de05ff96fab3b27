// The budget of failed authentications per client: a client whose credentials failed `points` times in a window is
// refused (429) before its next credential is looked at, so guessing costs the server nothing once the budget is
// spent. Only failures count; a credential that works never spends the budget. Credentials already verified in a
// short-lived cache are answered from it before the budget is consulted (the caller decides where `guard` wraps).
import { RateLimiterRes } from 'rate-limiter-flexible';
import { AuthenticationError, RateLimitedError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { rateLimitRefusals } from '../observability/metrics.js';
import type { RateLimitBucket, RateLimitStore } from './rate-limit.js';

export interface AuthenticationFailureLimit {
  /**
   * Runs `authenticate` for `client` (a key such as clientIpKey's) unless the client has spent its budget
   * (RateLimitedError, and `authenticate` does not run); an AuthenticationError it throws spends one point.
   */
  guard<T>(client: string, authenticate: () => Promise<T>): Promise<T>;
}

export interface AuthenticationFailureLimitOptions {
  store: RateLimitStore;
  bucket: RateLimitBucket;
  logger: Logger;
}

export function authenticationFailureLimit(options: AuthenticationFailureLimitOptions): AuthenticationFailureLimit {
  const { store, bucket, logger } = options;
  const limiter = store.limiter(bucket);
  // A limiter fault must not take authentication down: it is logged and the request is let through (fail open).
  const unavailable = (error: unknown) => logger.warn({ err: error, bucket: bucket.name }, 'rate limiter unavailable; authentication not limited');

  const assertBudgetLeft = async (client: string): Promise<void> => {
    let used: RateLimiterRes | null;
    try {
      used = await limiter.get(client);
    } catch (error) {
      unavailable(error);
      return;
    }
    if (used && used.consumedPoints >= bucket.points) {
      rateLimitRefusals.inc({ service: store.service, bucket: bucket.name });
      throw new RateLimitedError(used.msBeforeNext / 1000);
    }
  };

  const spend = async (client: string): Promise<void> => {
    try {
      await limiter.consume(client);
    } catch (rejection) {
      // Over budget now: the next attempt is refused by assertBudgetLeft.
      if (!(rejection instanceof RateLimiterRes)) unavailable(rejection);
    }
  };

  return {
    async guard(client, authenticate) {
      await assertBudgetLeft(client);
      try {
        return await authenticate();
      } catch (error) {
        if (error instanceof AuthenticationError) await spend(client);
        throw error;
      }
    },
  };
}
