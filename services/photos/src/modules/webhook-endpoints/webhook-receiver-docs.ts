// What a receiver needs to know, shown on the Webhooks tag of the API document.
import { WEBHOOK_SCHEDULES } from '@tributary/workflows';
import { PHOTOS_WEBHOOK_EVENTS } from './webhook-events.js';

const schedule = WEBHOOK_SCHEDULES.photos;
const human = (ms: number): string => (ms === 0 ? 'at once' : ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);

export const WEBHOOKS_TAG_DESCRIPTION = [
  'Signed webhooks, managed by a team owner or admin signed in to the office.',
  '',
  `Events: ${PHOTOS_WEBHOOK_EVENTS.map((name) => `\`${name}\``).join(', ')}. Body: \`{"id","type","timestamp","data"}\`; \`data\` is byte for byte the REST resource of the same kind (a photo as \`GET /api/v1/photos/{photo}\` answers it).`,
  '',
  'Signature: [Standard Webhooks](https://www.standardwebhooks.com). Headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (unix seconds of the attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of the `whsec_` secret), plus `webhook-event`. Refuse a timestamp more than 5 minutes away from your clock (a replay) and drop an id you have already processed.',
  '',
  `Delivery: a 2xx within ${schedule.attemptTimeoutMs / 1000} s is success; otherwise retried ${schedule.delaysMs.slice(1).map(human).join(', ')} after the previous attempt (${schedule.delaysMs.length} attempts), then failed.`,
].join('\n');
