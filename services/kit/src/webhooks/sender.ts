import { request } from 'node:https';
import { createSecureContext, type ConnectionOptions } from 'node:tls';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { classifyAddress, isIpLiteral, normalizeHost } from './address-policy.js';
import type { PrivateHostAllowlist } from './address-policy.js';
import { findForbiddenAddress, parseWebhookUrl, systemResolver, toAllowlist, UnsafeWebhookUrlError } from './url-policy.js';
import type { HostResolver, WebhookDestinationOptions } from './url-policy.js';

export interface WebhookSendRequest {
  url: string;
  /** Exact bytes to POST. */
  body: Buffer;
  /** Extra headers (event name, signature...). Content-Type application/json and Content-Length are set here. */
  headers: Record<string, string>;
  timeoutMs: number;
}

export type WebhookFailureKind = 'http_status' | 'redirect' | 'timeout' | 'blocked' | 'network' | 'invalid_url';

export interface WebhookSendResult {
  /** true only for a 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  /** Human-readable failure, null on success. */
  error: string | null;
  errorKind: WebhookFailureKind | null;
  durationMs: number;
  /** Address the connection went to, when one was made. */
  remoteAddress: string | null;
}

export interface WebhookSender {
  /** Never throws for a failed delivery: every outcome is a result. */
  send(request: WebhookSendRequest): Promise<WebhookSendResult>;
}

export interface WebhookSenderOptions extends WebhookDestinationOptions {
  userAgent?: string;
  /** Largest response body read before the connection is closed (the body is discarded). */
  maxResponseBytes?: number;
}

class BlockedDestinationError extends Error {}
class AttemptTimeoutError extends Error {}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for node:https that validates EVERY address the host resolves to before the socket connects,
 * so the address checked is the address connected to (no DNS-rebinding window between check and connect).
 */
function guardedLookup(resolver: HostResolver, allowlist: PrivateHostAllowlist) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolver(hostname).then(
      (resolved) => {
        const wanted = options.family === 4 || options.family === 6 ? resolved.filter((a) => a.family === options.family) : resolved;
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} does not resolve`);
          err.code = 'ENOTFOUND';
          callback(err, '');
          return;
        }
        const problem = findForbiddenAddress(normalizeHost(hostname), resolved, allowlist);
        if (problem) {
          callback(new BlockedDestinationError(`destination refused: ${hostname} does not resolve to a public address`), '');
          return;
        }
        if (options.all) callback(null, wanted.map(({ address, family }) => ({ address, family })));
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/**
 * SSRF-safe webhook sender over node:https: https only, every resolved address checked through a custom
 * lookup and the connected socket's remote address checked again, redirects never followed (3xx = failure),
 * one deadline per attempt covering DNS, connect, TLS and the response.
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const allowlist = toAllowlist(options.allowPrivateHosts);
  const resolver = options.lookup ?? systemResolver;
  const lookup = guardedLookup(resolver, allowlist);
  const userAgent = options.userAgent ?? 'Tributary-Webhooks/1.0';
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
  // The default trust store (plus NODE_EXTRA_CA_CERTS), built once: node:https would build a new context for every
  // attempt, since each opens a fresh connection (agent: false), and that was ~7 % of a delivering worker's CPU.
  const secureContext = createSecureContext();

  const addressAllowed = (hostname: string, address: string | undefined): string | null => {
    if (!address) return 'no remote address';
    if (allowlist.allowsHost(hostname) || allowlist.allowsAddress(address)) return null;
    const verdict = classifyAddress(address);
    return verdict.public ? null : (verdict.reason ?? 'not public');
  };

  return {
    async send({ url, body, headers, timeoutMs }) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let target: URL;
      try {
        target = parseWebhookUrl(url);
      } catch (error) {
        const kind = error instanceof UnsafeWebhookUrlError && error.reason === 'not_https' ? 'blocked' : 'invalid_url';
        return { ok: false, statusCode: null, error: (error as Error).message, errorKind: kind, durationMs: 0, remoteAddress: null };
      }
      const hostname = normalizeHost(target.hostname);
      if (isIpLiteral(hostname)) {
        const reason = addressAllowed(hostname, hostname);
        if (reason) {
          return { ok: false, statusCode: null, error: `destination refused: ${hostname} is not a public address`, errorKind: 'blocked', durationMs: 0, remoteAddress: null };
        }
      }

      return new Promise<WebhookSendResult>((resolve) => {
        let remoteAddress: string | null = null;
        let settled = false;
        let response: { statusCode: number; durationMs: number; location: string | undefined } | null = null;
        const finish = (result: Omit<WebhookSendResult, 'remoteAddress'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ ...result, remoteAddress });
          req.destroy();
        };
        const fromResponse = (r: NonNullable<typeof response>): Omit<WebhookSendResult, 'remoteAddress'> => {
          if (r.statusCode >= 200 && r.statusCode < 300) {
            return { ok: true, statusCode: r.statusCode, error: null, errorKind: null, durationMs: r.durationMs };
          }
          if (r.statusCode >= 300 && r.statusCode < 400) {
            return {
              ok: false, statusCode: r.statusCode, errorKind: 'redirect', durationMs: r.durationMs,
              error: `redirect not followed (HTTP ${r.statusCode}${r.location ? ` to ${r.location}` : ''})`,
            };
          }
          return { ok: false, statusCode: r.statusCode, error: `HTTP ${r.statusCode}`, errorKind: 'http_status', durationMs: r.durationMs };
        };

        const req = request({
          protocol: 'https:',
          hostname,
          port: target.port ? Number(target.port) : 443,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          agent: false, // a fresh connection per attempt: every attempt resolves and checks its destination again
          // node:https hands its options to tls.connect, whose secureContext its RequestOptions type does not list.
          ...({ secureContext } satisfies Pick<ConnectionOptions, 'secureContext'>),
          lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(body.length),
            'user-agent': userAgent,
          },
        });

        const timer = setTimeout(() => {
          if (response) finish(fromResponse(response));
          else req.destroy(new AttemptTimeoutError(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);

        req.on('socket', (socket: Socket) => {
          socket.once('connect', () => {
            remoteAddress = socket.remoteAddress ?? null;
            const reason = addressAllowed(hostname, socket.remoteAddress);
            if (reason) req.destroy(new BlockedDestinationError(`destination refused: ${hostname} connected to an address that is not public`));
          });
        });
        req.on('response', (res) => {
          response = { statusCode: res.statusCode ?? 0, durationMs: elapsed(), location: res.headers.location };
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > maxResponseBytes) finish(fromResponse(response!));
          });
          res.on('end', () => finish(fromResponse(response!)));
          res.on('error', () => finish(fromResponse(response!)));
        });
        req.on('error', (error: Error) => {
          if (response) return finish(fromResponse(response));
          if (error instanceof AttemptTimeoutError) {
            return finish({ ok: false, statusCode: null, error: error.message, errorKind: 'timeout', durationMs: elapsed() });
          }
          if (error instanceof BlockedDestinationError) {
            return finish({ ok: false, statusCode: null, error: error.message, errorKind: 'blocked', durationMs: elapsed() });
          }
          const code = (error as NodeJS.ErrnoException).code;
          finish({ ok: false, statusCode: null, error: code ? `${code}: ${error.message}` : error.message, errorKind: 'network', durationMs: elapsed() });
        });
        req.end(body);
      });
    },
  };
}
