// Rate limits of photos (spec "Limits": configuration values, a separate upload bucket; numbers not shown, decided
// here), counted by rate-limiter-flexible through the kit in fixed windows (Redis when REDIS_URL is set, so every
// instance shares the counters). Over budget: 429 in the service's envelope with Retry-After.
//  - Per token: every request counts against exactly one bucket: POST /api/v1/photos against the upload bucket, anything
//    else against the general bucket, so a device draining an upload backlog never blocks bootstrap or heartbeat.
//    A token counts only once it authenticates (its id is the key, so no token is in Redis); every other request (no
//    token, an unknown, revoked or made-up one) is counted by client IP, so a fresh random token buys no budget.
//    The upload bucket is bound to the upload route through the router (routeGuard), never to the text of the path.
//  - Login: per e-mail (its SHA-256, normalized as the login does) and per client IP, every attempt whatever its answer.
import {
  AuthenticationError,
  applyTrustProxy,
  clientIpKey,
  createRateLimitStore,
  envInteger,
  pathGuard,
  rateLimit,
  rateLimitEnv,
  routeGuard,
  sha256Hex,
  type Logger,
  type RateLimitEnv,
  type RateLimitKey,
  type RateLimitStore,
} from '@tributary/kit';
import type { Express, RequestHandler } from 'express';
import { LOGIN_PATH, normalizeEmail, signedInOrUndefined, type AuthService } from './modules/auth/index.js';
import { photoApi } from './modules/photos/index.js';
import { SERVICE_NAME } from './service-name.js';

/** Window of the per-token buckets: their limits are per minute. */
export const TOKEN_RATE_LIMIT_WINDOW_SECONDS = 60;

/** Env fields of the limits (spread into photosEnv); the defaults are the decided limits. */
export const rateLimitFields = {
  ...rateLimitEnv.shape,
  /** Requests per token (or client IP without a token) per minute, every endpoint but POST /api/v1/photos. */
  PHOTOS_RATE_LIMIT_PER_MINUTE: envInteger(1, 1_000_000).default(600),
  /** Uploads (POST /api/v1/photos) per token per minute, counted apart from the general bucket. */
  PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: envInteger(1, 1_000_000).default(120),
  /** Window length of the login limits; tests shorten it instead of waiting 15 minutes. */
  PHOTOS_LOGIN_RATE_LIMIT_WINDOW_SECONDS: envInteger(1, 86_400).default(900),
  PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: envInteger(1, 1_000_000).default(10),
  PHOTOS_LOGIN_RATE_LIMIT_PER_IP: envInteger(1, 1_000_000).default(100),
};

export type PhotosRateLimitConfig = RateLimitEnv & {
  PHOTOS_RATE_LIMIT_PER_MINUTE: number;
  PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE: number;
  PHOTOS_LOGIN_RATE_LIMIT_WINDOW_SECONDS: number;
  PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL: number;
  PHOTOS_LOGIN_RATE_LIMIT_PER_IP: number;
};

/** The counters' store (Redis when REDIS_URL is set, waiting briefly for the connection); close it with the app. */
export async function openRateLimitStore(config: PhotosRateLimitConfig, logger: Logger): Promise<RateLimitStore> {
  const store = createRateLimitStore({ service: SERVICE_NAME, logger, redisUrl: config.REDIS_URL, redisPrefix: config.RATE_LIMIT_REDIS_PREFIX });
  await store.ready();
  return store;
}

/** The caller: the id of the token that authenticated, else the client IP. */
const callerKey: RateLimitKey = (req, res) => {
  const signedIn = signedInOrUndefined(res);
  return signedIn ? `token:${signedIn.principal.tokenId}` : clientIpKey(req);
};

/** Authenticates a request that carries a token, for the limits and requireToken; a failure is answered by the route. */
function identifyCaller(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    if (req.headers.authorization === undefined) return next();
    try {
      res.locals.signedIn = await auth.signedIn(req.headers.authorization);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) return next(error);
    }
    next();
  };
}

/** Set by the upload route's guard, so the general bucket does not count the same request. */
const COUNTED_AS_UPLOAD = 'countedAsUpload';

/** The e-mail of a login body, or undefined (not counted per e-mail; a malformed body still counts per IP). */
const emailKey: RateLimitKey = (req) => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${sha256Hex(normalizeEmail(email))}` : undefined;
};

/** Mounts every limit; call before the routes. */
export function mountRateLimits(app: Express, options: { store: RateLimitStore; config: PhotosRateLimitConfig; logger: Logger; auth: AuthService }): void {
  const { store, config, logger } = options;
  applyTrustProxy(app, config.TRUST_PROXY);
  const perMinute = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds: TOKEN_RATE_LIMIT_WINDOW_SECONDS }, key });
  app.use(identifyCaller(options.auth));
  const markUpload: RequestHandler = (_req, res, next) => {
    res.locals[COUNTED_AS_UPLOAD] = true;
    next();
  };
  app.use(routeGuard(photoApi.upload, perMinute('upload', config.PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE, callerKey), markUpload));
  // Without a path: every request that is not an upload counts here, unknown paths included.
  app.use(perMinute('general', config.PHOTOS_RATE_LIMIT_PER_MINUTE, (req, res) => (res.locals[COUNTED_AS_UPLOAD] === true ? undefined : callerKey(req, res))));
  const loginWindow = config.PHOTOS_LOGIN_RATE_LIMIT_WINDOW_SECONDS;
  const login = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds: loginWindow }, key });
  app.use(
    pathGuard(
      LOGIN_PATH,
      login('login-ip', config.PHOTOS_LOGIN_RATE_LIMIT_PER_IP, clientIpKey),
      login('login-email', config.PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL, emailKey),
    ),
  );
}
