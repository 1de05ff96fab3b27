// What a receiver must know, shown on the /docs page (the Webhooks tag's description) and in the README: the
// delivery format and how to verify X-Service-Signature over the raw body in constant time.
import { WEBHOOK_SCHEDULES } from '@tributary/workflows';
import { EMITTED_WEBHOOK_EVENTS, RESERVED_WEBHOOK_EVENTS } from './webhook-events.js';

export const WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';

const secret = process.env.BNPL_WEBHOOK_SECRET; // the whsec_… shown once when the endpoint was created

function signatureIsValid(rawBody, signature) {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

const app = express();
// express.raw keeps the exact bytes: verify them BEFORE parsing the JSON.
app.post('/hooks/bnpl', express.raw({ type: 'application/json' }), (req, res) => {
  if (!signatureIsValid(req.body, req.get('X-Service-Signature'))) return res.sendStatus(401);
  const { event, timestamp, data } = JSON.parse(req.body.toString('utf8'));
  // ... handle event (a re-sent delivery repeats the same event, timestamp and data) ...
  res.sendStatus(204);
});`;

const humanDuration = (ms: number): string => (ms >= 3_600_000 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`);
const schedule = WEBHOOK_SCHEDULES.bnpl;

export const WEBHOOKS_TAG_DESCRIPTION = [
  'Register HTTPS endpoints that receive signed events. The service contacts a registered URL only when an event fires.',
  '',
  `**Delivery**: \`POST\` with \`Content-Type: application/json\`, body \`{"event", "timestamp" (ISO 8601 UTC), "data"}\`, headers \`X-Service-Event\` (the event name) and \`X-Service-Signature\` (lowercase hex HMAC-SHA256 of the raw body, keyed with the endpoint's \`secret\`). One delivery per active endpoint subscribed to the event.`,
  '',
  `**Events emitted**: ${EMITTED_WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}. **Accepted for subscription but never emitted**: ${RESERVED_WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}.`,
  '',
  `**Retries**: a non-2xx answer, a timeout (over ${schedule.attemptTimeoutMs / 1000} s) or a connection error is retried after ${schedule.delaysMs.slice(1).map(humanDuration).join(', ')}; after the ${schedule.delaysMs.length - 1}th retry the delivery is marked failed. Redirects are not followed.`,
  '',
  '**Verifying `X-Service-Signature`** (Node): compute the HMAC over the raw bytes, before any JSON parsing, and compare in constant time.',
  '',
  '```js',
  WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET,
  '```',
].join('\n');
