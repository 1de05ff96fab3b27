// Rate limits of bnpl (not shown in the spec; decided here), counted by rate-limiter-flexible through the kit in fixed
// windows (Redis when REDIS_URL is set, so every instance shares the counters). Over budget: 429 in bnpl's envelope
// with Retry-After. Each limit is bound to what the router matched (pathGuard, or the handler that serves the page),
// never to the text of a path.
//  - Dashboard login and code verification: per e-mail and per client IP; every request counts, whatever its answer.
//    The e-mail is counted by its SHA-256 (no addresses in Redis), normalized like the login does.
//  - Failed authentication (API keys, public keys, dashboard tokens; REST and GraphQL): per client IP, only credentials
//    that were looked up and refused count; once spent, the next credential is refused before any lookup.
//  - Payment link checkout starts (POST /l/{slug}, public): per client IP and per link.
import {
  applyTrustProxy,
  authenticationFailureLimit,
  clientIpKey,
  createRateLimitStore,
  envInteger,
  pathGuard,
  rateLimit,
  rateLimitEnv,
  sha256Hex,
  type AuthenticationFailureLimit,
  type Logger,
  type RateLimitEnv,
  type RateLimitKey,
  type RateLimitStore,
} from '@tributary/kit';
import type { Express, RequestHandler } from 'express';
import { LOGIN_PATH, VERIFY_LOGIN_CODE_PATH } from './modules/merchant-auth/index.js';
import { normalizeEmail } from './modules/merchants/index.js';
import { PAYMENT_LINK_MAX_OPEN_SESSIONS } from './modules/payment-links/index.js';
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
  /** Refused credentials per client IP per window before the next one is refused unread (429). */
  BNPL_AUTH_FAILURE_LIMIT_PER_IP: envInteger(1, 1_000_000).default(100),
  BNPL_AUTH_FAILURE_WINDOW_SECONDS: envInteger(1, 86_400).default(300),
  /** Payment link checkout starts per client IP, and per link, per window. */
  BNPL_PAYMENT_LINK_START_LIMIT_PER_IP: envInteger(1, 1_000_000).default(20),
  BNPL_PAYMENT_LINK_START_LIMIT_PER_LINK: envInteger(1, 1_000_000).default(120),
  BNPL_PAYMENT_LINK_START_WINDOW_SECONDS: envInteger(1, 86_400).default(60),
  /** Open checkout sessions a payment link may have at once; more starts answer 429 until some end. */
  BNPL_PAYMENT_LINK_MAX_OPEN_SESSIONS: envInteger(1, 1_000_000).default(PAYMENT_LINK_MAX_OPEN_SESSIONS),
};

export type BnplRateLimitConfig = RateLimitEnv & {
  BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS: number;
  BNPL_LOGIN_RATE_LIMIT_PER_EMAIL: number;
  BNPL_LOGIN_RATE_LIMIT_PER_IP: number;
  BNPL_VERIFY_RATE_LIMIT_PER_EMAIL: number;
  BNPL_VERIFY_RATE_LIMIT_PER_IP: number;
  BNPL_AUTH_FAILURE_LIMIT_PER_IP: number;
  BNPL_AUTH_FAILURE_WINDOW_SECONDS: number;
  BNPL_PAYMENT_LINK_START_LIMIT_PER_IP: number;
  BNPL_PAYMENT_LINK_START_LIMIT_PER_LINK: number;
  BNPL_PAYMENT_LINK_START_WINDOW_SECONDS: number;
  BNPL_PAYMENT_LINK_MAX_OPEN_SESSIONS: number;
};

interface LimitOptions {
  store: RateLimitStore;
  config: BnplRateLimitConfig;
  logger: Logger;
}

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
export function mountRateLimits(app: Express, { store, config, logger }: LimitOptions): void {
  applyTrustProxy(app, config.TRUST_PROXY);
  const durationSeconds = config.BNPL_AUTH_RATE_LIMIT_WINDOW_SECONDS;
  const limit = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds }, key });
  app.use(
    pathGuard(LOGIN_PATH, limit('login-ip', config.BNPL_LOGIN_RATE_LIMIT_PER_IP, clientIpKey), limit('login-email', config.BNPL_LOGIN_RATE_LIMIT_PER_EMAIL, emailKey)),
  );
  app.use(
    pathGuard(
      VERIFY_LOGIN_CODE_PATH,
      limit('verify-ip', config.BNPL_VERIFY_RATE_LIMIT_PER_IP, clientIpKey),
      limit('verify-email', config.BNPL_VERIFY_RATE_LIMIT_PER_EMAIL, emailKey),
    ),
  );
}

/** The failed-authentication budget MerchantAuthService spends (its guards pass the client IP key). */
export function authenticationFailures({ store, config, logger }: LimitOptions): AuthenticationFailureLimit {
  return authenticationFailureLimit({
    store,
    logger,
    bucket: { name: 'auth-failure-ip', points: config.BNPL_AUTH_FAILURE_LIMIT_PER_IP, durationSeconds: config.BNPL_AUTH_FAILURE_WINDOW_SECONDS },
  });
}

/** The limits the payment link page's start route runs first: per client IP, then per link (its `:slug`). */
export function paymentLinkStartLimits({ store, config, logger }: LimitOptions): RequestHandler[] {
  const durationSeconds = config.BNPL_PAYMENT_LINK_START_WINDOW_SECONDS;
  const check = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds }, key });
  return [
    check('payment-link-start-ip', config.BNPL_PAYMENT_LINK_START_LIMIT_PER_IP, clientIpKey),
    check('payment-link-start-link', config.BNPL_PAYMENT_LINK_START_LIMIT_PER_LINK, (req) => `link:${String(req.params.slug)}`),
  ];
}
