// The widget session routes as OpenAPI operations: the same zod schema validates the create body
// (WidgetSessionService.create) and documents it; widget-session.routes.ts mounts its handlers on these definitions.
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { WIDGET_SESSIONS_PATH } from '../../api-paths.js';
import { API_KEY_PAIR_SECURITY, PUBLIC_KEY_SECURITY } from '../../api-security.js';
import { SESSION_STATUSES } from './session-status-engine.js';
import { WIDGET_SESSION_LIFETIME_MINUTES } from './widget-session.limits.js';
import { createWidgetSessionBody } from './widget-session.validation.js';

const tags = ['Widget sessions'];
const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC.' });
const sessionToken = z.string().meta({ description: '`ws_` + 32 characters [A-Za-z0-9].', example: 'ws_Q2xV9kR7mT3pL8sN1bY4cH6dF0gJ5wZa' });

export const createdWidgetSessionResource = z
  .object({
    session_token: sessionToken,
    checkout_url: z.string().meta({ description: "The shopper's hosted checkout page: `<PUBLIC_BASE_URL>/checkout/<session_token>`." }),
    expires_at: timestamp.meta({ description: `Creation + ${WIDGET_SESSION_LIFETIME_MINUTES} minutes, ISO 8601 UTC.` }),
  })
  .meta({ id: 'BnplCreatedWidgetSession' });

export const widgetSessionResource = z
  .object({
    session_token: sessionToken,
    amount_cents: z.number().int(),
    currency: z.string(),
    merchant: z.object({ id: z.uuid(), name: z.string() }).meta({ description: 'The merchant the session belongs to.' }),
    status: z.enum(SESSION_STATUSES).meta({ description: 'An open session (initialized, eligible, ineligible) past expires_at reads expired.' }),
    expires_at: timestamp,
    order_reference: z.string(),
    livemode: z.boolean().meta({ description: 'false for a session created with a test key.' }),
    loan_id: z.uuid().nullable().meta({ description: 'The loan checkout booked (once authorized), else null.' }),
  })
  .meta({ id: 'BnplWidgetSession', description: "A widget session as a public key may read it: no shopper contact details, no merchant URLs." });

const tokenParam = z.object({ token: z.string().meta({ description: 'The session_token.' }) });

const oneSession = (description: string) => ({ description, content: { 'application/json': { schema: widgetSessionResource } } });

export const widgetSessionApi = {
  create: defineApiRoute({
    method: 'post',
    path: WIDGET_SESSIONS_PATH,
    errors: [401, 422],
    operation: {
      operationId: 'createWidgetSession',
      summary: 'Create a widget session (checkout) for a cart',
      description:
        `The session starts \`initialized\` and expires ${WIDGET_SESSION_LIFETIME_MINUTES} minutes after creation. A test key makes a test session (\`livemode: false\`), a live key a live one. Invalid input answers one 422 naming every offending field, and nothing is stored. Send an \`Idempotency-Key\` to make a retry safe: the same key with the same body answers 201 with the session the first attempt created (\`Idempotent-Replayed: true\`); the same key with a different body is a 422 on the key.`,
      tags,
      security: API_KEY_PAIR_SECURITY,
      requestParams: {
        header: z.object({
          'Idempotency-Key': z
            .string()
            .regex(IDEMPOTENCY_KEY_PATTERN)
            .optional()
            .meta({ description: `Optional, 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID or your order id). Scoped to your merchant and kept for the life of the session.` }),
        }),
      },
      requestBody: { required: true, content: { 'application/json': { schema: createWidgetSessionBody } } },
      responses: {
        '201': {
          description: 'Created.',
          headers: z.object({
            Location: z.string().meta({ description: 'The session: /api/v1/widget/sessions/{session_token}.' }),
            'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'Present when the Idempotency-Key was seen before and this is the session that first attempt created.' }),
          }),
          content: { 'application/json': { schema: createdWidgetSessionResource } },
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${WIDGET_SESSIONS_PATH}/:token`,
    errors: [401, 404, 429],
    operation: {
      operationId: 'getWidgetSession',
      summary: 'Read a widget session',
      description:
        'For reconciliation or abandoned-cart recovery; webhooks are the authoritative signal. A session of another merchant or of the other mode (a test session read with a live key, or the reverse), and an unknown token, answer 404. Polling is rate limited per public key (429 with Retry-After).',
      tags,
      security: PUBLIC_KEY_SECURITY,
      requestParams: { path: tokenParam },
      responses: { '200': oneSession('The session.') },
    },
  }),
  cancel: defineApiRoute({
    method: 'post',
    path: `${WIDGET_SESSIONS_PATH}/:token/cancel`,
    errors: [401, 404, 409],
    operation: {
      operationId: 'cancelWidgetSession',
      summary: 'Cancel a widget session',
      description:
        'An initialized, eligible or ineligible session becomes cancelled; the answer is the session. An authorized, cancelled or expired one answers 409 `conflict` ("The session is <status> and cannot be cancelled.") and nothing changes.',
      tags,
      security: PUBLIC_KEY_SECURITY,
      requestParams: { path: tokenParam },
      responses: { '200': oneSession('The cancelled session.') },
    },
  }),
};
