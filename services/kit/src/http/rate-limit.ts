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

function memoryStore(service: string): RateLimitStore {
  return {
    kind: 'memory',
    service,
    limiter: (bucket) => new RateLimiterMemory({ keyPrefix: `${service}:${bucket.name}`, points: bucket.points, duration: bucket.durationSeconds }),
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
    limiter: (bucket) =>
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        keyPrefix: `${prefix}:${bucket.name}`,
        points: bucket.points,
        duration: bucket.durationSeconds,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:${bucket.name}`, points: bucket.points, duration: bucket.durationSeconds }),
      }),
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

/** Counts each request against `bucket` under `key`; over budget it fails with RateLimitedError (429 + Retry-After). */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  const { bucket, logger } = options;
  const limiter = options.store.limiter(bucket);
  const sendHeaders = options.headers ?? true;
  const setHeaders = (res: Response, result: RateLimiterRes) => {
    if (!sendHeaders) return;
    res.setHeader('RateLimit-Limit', String(bucket.points));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))));
  };
  return async (req, res, next) => {
    let key: string | undefined;
    try {
      key = await options.key(req, res);
    } catch (error) {
      next(error);
      return;
    }
    if (key === undefined) {
      next();
      return;
    }
    try {
      const result = await limiter.consume(key);
      setHeaders(res, result);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        setHeaders(res, rejection);
        rateLimitRefusals.inc({ service: options.store.service, bucket: bucket.name });
        next(new RateLimitedError(rejection.msBeforeNext / 1000));
        return;
      }
      // Store failure with no insurance left: fail open rather than answer 500.
      (req.log ?? logger).warn({ err: rejection, bucket: bucket.name }, 'rate limiter unavailable; request let through');
    }
    next();
  };
}

/**
 * Runs `handlers` in order for requests whose path is `prefix` or below it (`/pay` matches `/pay` and `/pay/x`,
 * not `/payments`); others skip them. Mounted without a path, so the OpenAPI route inventory does not read the
 * limiter as a route of its own, and it covers routes that do not exist yet.
 */
export function underPathPrefix(prefix: string, ...handlers: RequestHandler[]): RequestHandler {
  const base = prefix.replace(/\/+$/, '');
  return (req, res, next) => {
    if (req.path !== base && !req.path.startsWith(`${base}/`)) return next();
    const run = (index: number, error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index];
      if (!handler) return next();
      try {
        void handler(req, res, (err?: unknown) => run(index + 1, err));
      } catch (thrown) {
        next(thrown);
      }
    };
    run(0);
  };
}
