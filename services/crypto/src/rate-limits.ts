// The crypto spec's Limits: merchant API 120 requests per minute per API key, public payer endpoint 60 per minute per
// client IP; over budget answers 429 {"message":"Too Many Attempts."} with Retry-After (cryptoErrorFormat).
// Mounted through the router on path prefixes (pathGuard), so every route under them is covered, including ones added
// later, however the path is spelled. The subgraph (/graphql) shares the merchant budgets, so GraphQL is not a way
// around the spec's 120 per minute.
import {
  AuthenticationError,
  applyTrustProxy,
  clientIpKey,
  createRateLimitStore,
  envInteger,
  graphqlRateLimitedResponse,
  pathGuard,
  rateLimit,
  rateLimitEnv,
  SUBGRAPH_PATH,
  type Logger,
  type RateLimitEnv,
  type RateLimitKey,
  type RateLimitStore,
} from '@tributary/kit';
import type { Express, RequestHandler } from 'express';
import { HOSTED_PAGE_PREFIX, MERCHANT_API_PREFIX, PUBLIC_API_PREFIX } from './api-paths.js';
import type { AccountService, CryptoPrincipal } from './modules/accounts/index.js';
import { SERVICE_NAME } from './service-name.js';

/** Env fields of the limits (spread into cryptoEnv). The defaults are the spec's numbers. */
export const rateLimitFields = {
  ...rateLimitEnv.shape,
  /** Window length; tests shorten it instead of waiting a minute. */
  CRYPTO_RATE_LIMIT_WINDOW_SECONDS: envInteger(1, 86_400).default(60),
  CRYPTO_MERCHANT_RATE_LIMIT: envInteger(1, 1_000_000).default(120),
  CRYPTO_PUBLIC_RATE_LIMIT: envInteger(1, 1_000_000).default(60),
};

export type CryptoRateLimitConfig = RateLimitEnv & {
  CRYPTO_RATE_LIMIT_WINDOW_SECONDS: number;
  CRYPTO_MERCHANT_RATE_LIMIT: number;
  CRYPTO_PUBLIC_RATE_LIMIT: number;
};

/** The counters' store (Redis when REDIS_URL is set, waiting briefly for the connection); close it with the app. */
export async function openRateLimitStore(config: CryptoRateLimitConfig, logger: Logger): Promise<RateLimitStore> {
  const store = createRateLimitStore({ service: SERVICE_NAME, logger, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await store.ready();
  return store;
}

/**
 * Mounts the limiters; call before any route.
 *
 * - Merchant API: a request whose bearer key authenticates is counted against that key (bucket `merchant`); the
 *   principal is kept on res.locals so requireApiKey does not look the key up twice. Every other merchant request
 *   (no key, a wrong or revoked key) is counted per client IP (bucket `merchant-unauthenticated`, same budget), so
 *   guessing keys or hammering without one is throttled too. The route still answers its own 401.
 * - Subgraph /graphql: the same two merchant buckets (one budget per key across REST and GraphQL), except that a
 *   request carrying no Authorization header at all is not counted: behind the gateway every dashboard shares one
 *   client IP, and such a request reads nothing (each field answers UNAUTHENTICATED). Over budget it gets a GraphQL
 *   error RATE_LIMITED (graphqlRateLimitedResponse) instead of the REST body.
 * - Public payer endpoint /api/pay/* and hosted page /pay/*: per client IP, each its own bucket, so a page open in a
 *   browser (which polls the endpoint for live status) does not starve a custom checkout of the same IP, and unknown
 *   slugs count like known ones.
 */
export function mountRateLimits(app: Express, options: { store: RateLimitStore; config: CryptoRateLimitConfig; logger: Logger; accounts: AccountService }): void {
  const { store, config, logger } = options;
  applyTrustProxy(app, config.TRUST_PROXY);
  const durationSeconds = config.CRYPTO_RATE_LIMIT_WINDOW_SECONDS;
  const merchant = { points: config.CRYPTO_MERCHANT_RATE_LIMIT, durationSeconds };
  const publicLimit = { points: config.CRYPTO_PUBLIC_RATE_LIMIT, durationSeconds };
  const principal = (res: { locals: Record<string, unknown> }) => res.locals.principal as CryptoPrincipal | undefined;

  // The two merchant buckets are shared by the REST prefix and the subgraph (the store keeps one limiter per bucket).
  const identify = identifyMerchant(options.accounts);
  const merchantLimits = (unauthenticatedKey: RateLimitKey) => [
    identify,
    rateLimit({ store, logger, bucket: { name: 'merchant', ...merchant }, key: (_req, res) => mapDefined(principal(res), (p) => `key:${p.apiKeyId}`) }),
    rateLimit({ store, logger, bucket: { name: 'merchant-unauthenticated', ...merchant }, key: (req, res) => (principal(res) ? undefined : unauthenticatedKey(req, res)) }),
  ];
  app.use(pathGuard(MERCHANT_API_PREFIX, ...merchantLimits(clientIpKey)));
  const graphqlClientKey: RateLimitKey = (req) => (req.headers.authorization === undefined ? undefined : clientIpKey(req));
  app.use(pathGuard(SUBGRAPH_PATH, ...merchantLimits(graphqlClientKey), graphqlRateLimitedResponse()));
  app.use(pathGuard(PUBLIC_API_PREFIX, rateLimit({ store, logger, bucket: { name: 'public-api', ...publicLimit }, key: clientIpKey })));
  app.use(pathGuard(HOSTED_PAGE_PREFIX, rateLimit({ store, logger, bucket: { name: 'hosted-page', ...publicLimit }, key: clientIpKey })));
}

/** Authenticates a request that carries credentials; a failure is not answered here (the route's guard does it). */
function identifyMerchant(accounts: AccountService): RequestHandler {
  return async (req, res, next) => {
    if (req.headers.authorization === undefined) return next();
    try {
      res.locals.principal = await accounts.authenticate(req.headers.authorization);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) return next(error);
    }
    next();
  };
}

function mapDefined<T, R>(value: T | undefined, fn: (value: T) => R): R | undefined {
  return value === undefined ? undefined : fn(value);
}
