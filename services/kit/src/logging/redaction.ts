// Secrets must never reach a log line, whatever object they are nested in. pino's path-based `redact` cannot
// match "any key containing token", so log objects, bindings and serialized requests/responses/errors all pass
// through `redactSecrets`, which replaces the value of every sensitive-looking key.

export const REDACTED = '[Redacted]';

/**
 * Keys whose values are never logged: credentials in any spelling (authorization, X-Bnpl-Authorization, cookie,
 * set-cookie, password, *secret*, *token*, *key*). Public identifiers that merely contain "key" are exempt.
 */
const sensitiveKey = /authori[sz]ation|cookie|passw(?:or)?d|passphrase|secret|token|credential|key|signature/i;
const publicKey = /public[-_]?key|key[-_]?id$|^idempotency[-_]?key$/i;

export function isSensitiveKey(key: string): boolean {
  return sensitiveKey.test(key) && !publicKey.test(key);
}

const MAX_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  // Compared structurally rather than with `=== Object.prototype`: objects from another realm (Node core's
  // `req.headers` seen from a vm context such as Jest's) have a different Object.prototype.
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Returns a copy of plain objects/arrays with sensitive values replaced. Class instances (requests, errors,
 * buffers) are returned as they are: their own serializers sanitize what they emit.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item, depth + 1)) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    copy[key] = isSensitiveKey(key) && inner !== undefined && inner !== null ? REDACTED : redactSecrets(inner, depth + 1);
  }
  return copy as T;
}

/** Redacts sensitive query parameters in a path such as `/callback?token=abc&page=2`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  let changed = false;
  for (const key of new Set(params.keys())) {
    if (isSensitiveKey(key)) {
      params.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, queryStart)}?${params.toString()}` : url;
}
