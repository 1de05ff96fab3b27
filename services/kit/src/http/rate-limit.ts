// Rate limiting: fixed windows counted by rate-limiter-flexible, per named bucket and per key (an API key, a client IP).
// Counters live in process memory by default; with REDIS_URL they live in Redis (one atomic Lua INCR+TTL per request),
// so every instance behind a load balancer enforces one shared limit.
//
// Redis outage policy: never a 500. Each Redis limiter carries an in-memory insurance limiter with the same budget; while
// Redis is unreachable, requests are counted per instance (the limit is still enforced, only not shared), and the
// outage is logged once when it starts and once when Redis is back. Should even that fail, the request is let through
// with a warning (fail open): a limiter fault must not take the API down.
import type { Express, Request, RequestHandler, Response } from 'express';
import ipaddr from 'ipaddr.js';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { envUrl } from '../config/index.js';
import { RateLimitedError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { rateLimitRefusals } from '../observability/metrics.js';

/** Environment variables of rate limiting; services `.extend()` their env with `rateLimitEnv.shape`. */
export const rateLimitEnv = z.object({
  /** redis:// or rediss:// URL; unset = counters in process memory (one instance only). */
  REDIS_URL: envUrl(['redis:', 'rediss:'], 'a redis:// or rediss:// URL').optional(),
  /** Prefix of every Redis key the limiter writes (`<prefix>:<service>:<bucket>:<key>`). */
  RATE_LIMIT_REDIS_PREFIX: z.string().trim().min(1).default('tributary:rl'),
  /**
   * Express's `trust proxy` setting, applied only when set: `true`/`false`, a hop count (`1`), or a comma list of
   * addresses, CIDRs or Express's names (`loopback`, `uniquelocal`). Unset = X-Forwarded-For is ignored and the
   * client IP is the socket's peer, so clients cannot pick their own bucket.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1)
    .transform((value): boolean | number | string => (value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value))
    .optional(),
});
export type RateLimitEnv = z.infer<typeof rateLimitEnv>;

/** Applies TRUST_PROXY to the app (a no-op when it is not configured). */
export function applyTrustProxy(app: Express, trustProxy: RateLimitEnv['TRUST_PROXY']): void {
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
}

export interface RateLimitBucket {
  /** Bucket name: counters of different buckets never mix (photos' upload bucket vs. the rest). */
  name: string;
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds (fixed window starting at a key's first request). */
  durationSeconds: number;
}

/** Where counters live; one per process (shared by all buckets), closed with the app. */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** The service whose counters these are (Redis keys, the refusals metric). */
  readonly service: string;
  /** The bucket's limiter: the same one for every call with the bucket's name, so its counters are shared. */
  limiter(bucket: RateLimitBucket): RateLimiterAbstract;
  /**
   * Waits (at most `timeoutMs`) for the Redis connection, so the first requests after startup are counted in Redis
   * rather than by the insurance limiter. Never rejects: an unreachable Redis is logged and the limits run in memory.
   */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  service: string;
  logger: Logger;
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
}

export function createRateLimitStore(options: RateLimitStoreOptions): RateLimitStore {
  return options.redisUrl ? redisStore(options, options.redisUrl) : memoryStore(options.service);
}

/**
 * One limiter per bucket name, so every middleware counting a bucket shares its counters (an in-memory limiter keeps
 * its own); a second bucket of the same name with another budget is a programming error.
 */
function limiterPerBucket(create: (bucket: RateLimitBucket) => RateLimiterAbstract): (bucket: RateLimitBucket) => RateLimiterAbstract {
  const limiters = new Map<string, { bucket: RateLimitBucket; limiter: RateLimiterAbstract }>();
  return (bucket) => {
    const known = limiters.get(bucket.name);
    if (known && (known.bucket.points !== bucket.points || known.bucket.durationSeconds !== bucket.durationSeconds)) {
      throw new Error(`rate limit bucket "${bucket.name}" defined twice with different budgets`);
    }
    if (known) return known.limiter;
    const limiter = create(bucket);
    limiters.set(bucket.name, { bucket, limiter });
    return limiter;
  };
}

function memoryStore(service: string): RateLimitStore {
  return {
    kind: 'memory',
    service,
    limiter: limiterPerBucket((bucket) => new RateLimiterMemory({ keyPrefix: `${service}:${bucket.name}`, points: bucket.points, duration: bucket.durationSeconds })),
    ready: async () => {},
    close: async () => {},
  };
}

function redisStore(options: RateLimitStoreOptions, url: string): RateLimitStore {
  const log = options.logger.child({ component: 'rate-limit' });
  const client = new Redis(url, {
    // Fail fast instead of queueing commands while disconnected: the insurance limiter answers meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
  let healthy = true;
  client.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    log.warn({ err: error }, 'Redis unreachable: rate limits are counted per instance (in memory) until it is back');
  });
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    log.info('Redis reachable again: rate limits are shared across instances');
  });
  const prefix = `${options.redisPrefix ?? 'tributary:rl'}:${options.service}`;
  return {
    kind: 'redis',
    service: options.service,
    limiter: limiterPerBucket(
      (bucket) =>
        new RateLimiterRedis({
          storeClient: client,
          rejectIfRedisNotReady: true,
          keyPrefix: `${prefix}:${bucket.name}`,
          points: bucket.points,
          duration: bucket.durationSeconds,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:${bucket.name}`, points: bucket.points, duration: bucket.durationSeconds }),
        }),
    ),
    ready: (timeoutMs = 2_000) =>
      new Promise<void>((resolve) => {
        if (client.status === 'ready') return resolve();
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done);
          client.off('error', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        client.once('ready', done);
        client.once('error', done);
      }),
    close: async () => {
      client.removeAllListeners('error');
      client.on('error', () => {});
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/**
 * The key a request is counted under, or undefined to let it through uncounted (another limiter handles it).
 * Keys are namespaced by the caller (`key:<id>`, `ip:<address>`).
 */
export type RateLimitKey = (req: Request, res: Response) => string | undefined | Promise<string | undefined>;

/**
 * The client's IP as Express sees it (`req.ip`: X-Forwarded-For is read only under a configured TRUST_PROXY).
 * IPv6 clients are counted per /64, the block one subscriber usually holds, so rotating addresses does not reset the budget.
 */
export function clientIpKey(req: Request): string {
  const raw = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (!ipaddr.isValid(raw)) return `ip:${raw}`;
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv6') {
    const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
    return `ip6:${parts.join(':')}::/64`;
  }
  return `ip:${address.toString()}`;
}

export interface RateLimitOptions {
  store: RateLimitStore;
  bucket: RateLimitBucket;
  key: RateLimitKey;
  logger: Logger;
  /** Send RateLimit-Limit / -Remaining / -Reset (IETF draft) headers; default true. */
  headers?: boolean;
}

/** Counts a request against a bucket: resolves when it is within budget, rejects with RateLimitedError when not. */
type RateLimitCheck = (req: Request, res: Response) => Promise<void>;

/** Counts a request against `bucket` under `key`; over budget it rejects with RateLimitedError (429 + Retry-After). */
function rateLimitCheck(options: RateLimitOptions): RateLimitCheck {
  const { bucket, logger } = options;
  const limiter = options.store.limiter(bucket);
  const sendHeaders = options.headers ?? true;
  const setHeaders = (res: Response, result: RateLimiterRes) => {
    if (!sendHeaders) return;
    res.setHeader('RateLimit-Limit', String(bucket.points));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))));
  };
  return async (req, res) => {
    const key = await options.key(req, res);
    if (key === undefined) return;
    try {
      setHeaders(res, await limiter.consume(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        setHeaders(res, rejection);
        rateLimitRefusals.inc({ service: options.store.service, bucket: bucket.name });
        throw new RateLimitedError(rejection.msBeforeNext / 1000);
      }
      // Store failure with no insurance left: fail open rather than answer 500.
      (req.log ?? logger).warn({ err: rejection, bucket: bucket.name }, 'rate limiter unavailable; request let through');
    }
  };
}

/**
 * Counts each request against `bucket` under `key`; over budget it fails with RateLimitedError. Mount it where the
 * router matched what it limits: pathGuard, routeGuard, or a route's own handlers.
 */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  const check = rateLimitCheck(options);
  return (req, res, next) => {
    check(req, res).then(() => next(), next);
  };
}
