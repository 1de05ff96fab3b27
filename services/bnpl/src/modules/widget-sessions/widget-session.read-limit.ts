// The polling limit of GET /api/v1/widget/sessions/{token} (spec: polling a session is for reconciliation or
// abandoned-cart recovery only and must not be aggressive): each public key may read sessions at most
// BNPL_SESSION_READ_RATE_LIMIT times (default 60) per BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS (default 60), across all its
// sessions; over budget answers 429 `rate_limited` with Retry-After. Counted after the public-key guard, so only a
// real key has a budget (a refused key is a 401 and costs one indexed lookup). Webhooks (and service.success in the
// browser) are the signals to wait for, so nothing of ours polls.
import { envInteger, rateLimit, type Logger, type RateLimitStore } from '@tributary/kit';
import type { RequestHandler } from 'express';
import type { PublicKeyCaller } from '../merchant-auth/index.js';

/** Env fields of the limit (spread into bnplEnv); tests shorten the window instead of waiting a minute. */
export const sessionReadLimitFields = {
  BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS: envInteger(1, 86_400).default(60),
  BNPL_SESSION_READ_RATE_LIMIT: envInteger(1, 1_000_000).default(60),
};

export interface SessionReadLimitConfig {
  BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS: number;
  BNPL_SESSION_READ_RATE_LIMIT: number;
}

/** The limiter; mount it after requirePublicKey (widgetSessionRoutes' `readLimit`). */
export function sessionReadLimit(options: { store: RateLimitStore; config: SessionReadLimitConfig; logger: Logger }): RequestHandler {
  const { config } = options;
  return rateLimit({
    store: options.store,
    logger: options.logger,
    bucket: { name: 'widget-session-read', points: config.BNPL_SESSION_READ_RATE_LIMIT, durationSeconds: config.BNPL_SESSION_READ_RATE_LIMIT_WINDOW_SECONDS },
    key: (_req, res) => `pk:${(res.locals.publicKeyCaller as PublicKeyCaller).apiKeyId}`,
  });
}
