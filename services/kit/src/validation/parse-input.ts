// zod -> ValidationError, so every service reports bad input as `{ "field.path": ["message"] }`.
import type { z } from 'zod';
import { ValidationError, type FieldErrors } from '../errors/index.js';

export interface ParseInputOptions {
  /** Key for issues about the input as a whole (e.g. "expected object"). Default `input`. */
  rootField?: string;
}

/** A missing required field reads better as "required" than as zod's "expected string, received undefined". */
const requiredMessage: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : undefined;

/** Dot-joined path; array indexes become segments too (`items.0.amount`). */
export function fieldPath(path: readonly PropertyKey[], rootField: string): string {
  return path.length === 0 ? rootField : path.map((segment) => String(segment)).join('.');
}

export function issuesToFields(issues: readonly z.core.$ZodIssue[], rootField = 'input'): FieldErrors {
  const fields: FieldErrors = {};
  const add = (key: string, message: string): void => {
    // Own keys only: a client's field named `toString` or `__proto__` must not reach Object.prototype.
    if (!Object.hasOwn(fields, key)) Object.defineProperty(fields, key, { value: [], enumerable: true, writable: true, configurable: true });
    const messages = fields[key]!;
    if (!messages.includes(message)) messages.push(message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // One entry per unexpected key so clients can point at the exact field.
      for (const key of issue.keys) add(fieldPath([...issue.path, key], rootField), 'This field is not allowed.');
    } else {
      add(fieldPath(issue.path, rootField), issue.message);
    }
  }
  return fields;
}

export type CheckedInput<T> = { success: true; data: T } | { success: false; fields: FieldErrors };

/**
 * Parses untrusted input without throwing: the data, or every offending field (for callers that add their own checks'
 * problems to the same 422).
 */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown, options: ParseInputOptions = {}): CheckedInput<z.infer<S>> {
  const result = schema.safeParse(input, { error: requiredMessage });
  return result.success ? { success: true, data: result.data } : { success: false, fields: issuesToFields(result.error.issues, options.rootField) };
}

/** Parses untrusted input; throws ValidationError (422) naming every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, options: ParseInputOptions = {}): z.infer<S> {
  const checked = checkInput(schema, input, options);
  if (checked.success) return checked.data;
  throw new ValidationError(checked.fields);
}
