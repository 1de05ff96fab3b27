// Rate limits of photos (spec "Limits": configuration values, a separate upload bucket; numbers not shown, decided
// here), counted by rate-limiter-flexible through the kit in fixed windows (Redis when REDIS_URL is set, so every
// instance shares the counters). Over budget: 429 in the service's envelope with Retry-After.
//  - Per token: every request counts against exactly one bucket: POST /api/v1/photos against the upload bucket, anything
//    else against the general bucket, so a device draining an upload backlog never blocks bootstrap or heartbeat.
//    The key is the SHA-256 of the bearer credential (no tokens in Redis); a request without a well-formed token is
//    counted by client IP.
//  - Login: per e-mail (its SHA-256, normalized as the login does) and per client IP, every attempt whatever its answer.
import {
  applyTrustProxy,
  bearerCredential,
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
import { REST_BASE } from './api-paths.js';
import { ACCESS_TOKEN_PATTERN, LOGIN_PATH, normalizeEmail } from './modules/auth/index.js';
import { SERVICE_NAME } from './service-name.js';

/** The upload endpoint, whose requests count against the upload bucket only. */
export const UPLOAD_PATH = `${REST_BASE}/photos`;
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

/** The caller: the SHA-256 of a well-formed bearer token, else the client IP. */
const callerKey: RateLimitKey = (req) => {
  const credential = bearerCredential(req.headers.authorization);
  return credential && ACCESS_TOKEN_PATTERN.test(credential) ? `token:${sha256Hex(credential)}` : clientIpKey(req);
};

const isUpload = (method: string, path: string) => method === 'POST' && path === UPLOAD_PATH;

/** The e-mail of a login body, or undefined (not counted per e-mail; a malformed body still counts per IP). */
const emailKey: RateLimitKey = (req) => {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${sha256Hex(normalizeEmail(email))}` : undefined;
};

/** Mounts every limit; call before the routes. */
export function mountRateLimits(app: Express, options: { store: RateLimitStore; config: PhotosRateLimitConfig; logger: Logger }): void {
  const { store, config, logger } = options;
  applyTrustProxy(app, config.TRUST_PROXY);
  const perMinute = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds: TOKEN_RATE_LIMIT_WINDOW_SECONDS }, key });
  const general = perMinute('general', config.PHOTOS_RATE_LIMIT_PER_MINUTE, (req, res) => (isUpload(req.method, req.path) ? undefined : callerKey(req, res)));
  const upload = perMinute('upload', config.PHOTOS_UPLOAD_RATE_LIMIT_PER_MINUTE, (req, res) => (isUpload(req.method, req.path) ? callerKey(req, res) : undefined));
  // Mounted without a path, so the OpenAPI drift check does not read them as routes and they cover every route.
  app.use(general, upload);
  const loginWindow = config.PHOTOS_LOGIN_RATE_LIMIT_WINDOW_SECONDS;
  const login = (name: string, points: number, key: RateLimitKey) => rateLimit({ store, logger, bucket: { name, points, durationSeconds: loginWindow }, key });
  app.use(
    underPathPrefix(
      LOGIN_PATH,
      login('login-ip', config.PHOTOS_LOGIN_RATE_LIMIT_PER_IP, clientIpKey),
      login('login-email', config.PHOTOS_LOGIN_RATE_LIMIT_PER_EMAIL, emailKey),
    ),
  );
}
