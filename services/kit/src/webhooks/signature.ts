import { createHmac, timingSafeEqual } from 'node:crypto';

export type PayloadBytes = Buffer | Uint8Array | string;

const toBuffer = (payload: PayloadBytes): Buffer =>
  typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : Buffer.from(payload);

/** Lowercase hex HMAC-SHA256 of the exact bytes sent (a string is taken as its UTF-8 bytes). */
export function signPayload(secret: string, payload: PayloadBytes): string {
  return createHmac('sha256', secret).update(toBuffer(payload)).digest('hex');
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Receiver side: recompute the HMAC over the RAW request body (before any JSON parsing) and compare in
 * constant time. Returns false for a missing, malformed or wrong-length signature.
 *
 * ```ts
 * app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
 *   if (!verifySignature(secret, req.body, req.get('X-Gateway-Signature') ?? '')) return res.sendStatus(401);
 *   const event = JSON.parse(req.body.toString('utf8'));
 *   ...
 * });
 * ```
 */
export function verifySignature(secret: string, payload: PayloadBytes, signature: string): boolean {
  if (typeof signature !== 'string' || !HEX_SHA256.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(toBuffer(payload)).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}
