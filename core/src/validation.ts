import type { z } from 'zod';
import { GatewayError } from './errors.js';
import type { FieldError } from './schemas/error.js';

/** `transaction.items[0].unitPrice` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key as string];
  }
  return current;
}

/** Zod issues → the spec's `fields`, one entry per faulty path (unknown keys named one by one). */
export function toFieldErrors(input: unknown, error: z.ZodError): { fields: FieldError[]; missing: boolean } {
  const fields: FieldError[] = [];
  let missing = false;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields.push({ path: formatPath([...issue.path, key]), message: 'unknown field' });
      continue;
    }
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      missing = true;
      fields.push({ path: formatPath(issue.path), message: 'is required' });
      continue;
    }
    if (issue.code === 'invalid_union' && valueAt(input, issue.path) === undefined) {
      missing = true;
      fields.push({ path: formatPath(issue.path), message: 'is required' });
      continue;
    }
    fields.push({ path: formatPath(issue.path), message: issue.message });
  }
  return { fields, missing };
}

/**
 * Parse a request body against a canonical schema. A missing required field is a 400
 * `missing_field`; any other failure (unknown field, wrong type, bad value) is a 422
 * `validation_failed`. Both list every problem in `fields`.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { fields, missing } = toFieldErrors(input, result.error);
  const first = missing ? fields.find((f) => f.message === 'is required') : fields[0];
  const summary = first ? `${first.path} ${first.message}` : 'invalid body';
  throw new GatewayError(missing ? 'missing_field' : 'validation_failed', {
    message: `${missing ? 'A required field is missing' : 'The request failed validation'}: ${summary}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ''}.`,
    fields,
  });
}
