// Rate limits of the dashboard login (not shown in the spec; decided here): login and code verification, each per
// e-mail and per client IP, in fixed windows (rate-limiter-flexible through the kit; Redis when REDIS_URL is set, so
// every instance shares the counters). Every request counts, whatever its answer. Over budget: 429 in bnpl's envelope
// with Retry-After. The e-mail is counted by its SHA-256 (no addresses in Redis), normalized like the login does.
import {
  applyTrustProxy,
  clientIpKey,
  createRateLimitStore,
  envInteger,
  rateLimit,
  rateLimitEnv,
  sha256Hex,
  underPathPrefix,
  type Logger,
  type RateLimitEnv,
  type RateLimitKey,
  type RateLimitStore,
} from '@tributary/kit';
import type { Express } from 'express';
import { LOGIN_PATH, VERIFY_LOGIN_CODE_PATH } from './modules/merchant-auth/index.js';
import { normalizeEmail } from './modules/merchants/index.js';
import { SERVICE_NAME } from './service-name.js';

/** Env fields of the limits (spread into bnplEnv); the defaults are the decided limits. */
export const rateLimitFields = {
  ...rateLimitEnv.shape,
  /** Window length of every login limit; tests shorten it instead of waiting 15 minutes. */
  BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS: envInteger(1, 86_400).default(900),
  BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: envInteger(1, 1_000_000).default(10),
  BNPL_LOGIN_RATE_LIMIT_PER_IP: envInteger(1, 1_000_000).default(100),
  BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: envInteger(1, 1_000_000).default(10),
  BNPL_VERIFY_RATE_LIMIT_PER_IP: envInteger(1, 1_000_000).default(100),
};

export type BnplRateLimitConfig = RateLimitEnv & {
  BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS: number;
  BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: number;
  BNPL_LOGIN_RATE_LIMIT_PER_IP: number;
  BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: number;
  BNPL_VERIFY_RATE_LIMIT_PER_IP: number;
};

/** The counters' store (Redis when REDIS_URL is set, waiting briefly for the connection); close it with the app. */
export async function openRateLimitStore(config: BnplRateLimitConfig, logger: Logger): Promise<RateLimitStore> {
  const store = createRateLimitStore({ service: SERVICE_NAME, logger, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await store.ready();
  return store;
}

/** The e-mail of a login body, or undefined (not counted per e-mail; a malformed body still counts per IP). */
const emailKey: RateLimitKey = (req) => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${sha256Hex(normalizeEmail(email))}` : undefined;
};

/** Mounts the login limits; call before the login routes. */
export function mountRateLimits(app: Express, options: { store: RateLimitStore; config: BnplRateLimitConfig; logger: Logger }): void {
  const { store, config, logger } = options;
  applyTrustProxy(app, config.TRUST_PROXY);
  const durationSeconds = config.BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS;
  const limit = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds }, key });
  // Mounted without a path (underPathPrefix) so the OpenAPI drift check does not see them as routes.
  app.use(
    underPathPrefix(
      LOGIN_PATH,
      limit('login-ip', config.BNPL_LOGIN_RATE_LIMIT_PER_IP, clientIpKey),
      limit('login-email', config.BNPL_LOGIN_RATE_LIMIT_PER_EMAIL, emailKey),
    ),
  );
  app.use(
    underPathPrefix(
      VERIFY_LOGIN_CODE_PATH,
      limit('verify-ip', config.BNPL_VERIFY_RATE_LIMIT_PER_IP, clientIpKey),
      limit('verify-email', config.BNPL_VERIFY_RATE_LIMIT_PER_EMAIL, emailKey),
    ),
  );
}
