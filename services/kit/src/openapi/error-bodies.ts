// The two error bodies of ErrorFormat (errors/error-formats.ts) as zod schemas, for the OpenAPI documents.
// The kit's tests render every DomainError kind through both formats and parse the result with these schemas.
import { z } from 'zod';

const fieldErrors = z
  .record(z.string(), z.array(z.string()))
  .meta({ description: 'Messages per offending input field; nested fields are dot-joined (`items.0.amount`).', example: { name: ['This field is required.'] } });

/** `messageErrorFormat`: `{ "message": "...", "errors"?: { field: [..] } }` (crypto). */
export const messageErrorBody = z
  .object({
    message: z.string().meta({ example: 'The given data was invalid.' }),
    errors: fieldErrors.optional(),
  })
  .meta({ id: 'Error', description: 'Every error response: a human-readable message and, on 422, the offending fields.' });

/** `envelopeErrorFormat`: `{ "error": { code, message, fields?, ...details } }` (bnpl, photos). */
export const envelopeErrorBody = z
  .object({
    error: z
      .looseObject({
        code: z
          .string()
          .meta({
            description:
              'Stable machine-readable code: validation_failed, unauthenticated, forbidden, not_found, rule_violation (or a rule-specific code), conflict, rate_limited, malformed_request, malformed_json, unsupported_media_type, payload_too_large, method_not_allowed, service_unavailable (503 while the database cannot be reached), internal_error; a 4xx the HTTP layer raises itself carries its status name (range_not_satisfiable, precondition_failed).',
            example: 'validation_failed',
          }),
        message: z.string().meta({ example: 'The request is invalid.' }),
        fields: fieldErrors.optional(),
        retry_after_seconds: z.number().int().optional().meta({ description: 'On 429 only.' }),
      })
      .meta({ description: 'Details such as `missing_scope` (403) sit beside code and message.' }),
  })
  .meta({ id: 'Error', description: 'Every error response uses this envelope.' });
