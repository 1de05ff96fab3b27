// Query parameters shared by the office lists (checklists, tasks): an optional record id and the `mine=1` flag.
// Query values arrive as text; both are parsed strictly so anything else is a 422 naming the parameter.
import { z } from 'zod';
import { MAX_ID } from './modules/photos/index.js';

const DIGITS = /^\d{1,10}$/;

/** An optional id (digits, 1..2^31-1), documented as the integer a client sends. */
export function optionalIdQueryParam(description: string) {
  const error = `Must be an integer between 1 and ${MAX_ID}.`;
  return z
    .string()
    .regex(DIGITS, { error })
    .transform(Number)
    .pipe(z.number().int().min(1, { error }).max(MAX_ID, { error }))
    .optional()
    .meta({
      description,
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_ID, description });
      },
    });
}

/** `mine=1` limits a list to the caller's assignments; `mine=0` or absent does not; anything else is 422. */
export function mineQueryParam(description: string) {
  return z
    .enum(['0', '1'], { error: 'Must be 0 or 1.' })
    .optional()
    .transform((value) => value === '1')
    .meta({ description });
}

/** A path id as a record id, or null when it cannot be one (not digits, or beyond the id range): reads as 404. */
export function pathId(id: string | number): number | null {
  const text = String(id);
  return DIGITS.test(text) && Number(text) <= MAX_ID ? Number(text) : null;
}
