import type { z } from 'zod';
import { GatewayError } from './errors.js';
import { groupDigits } from './number-text.js';
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

/**
 * At most this many entries in an Error body's `fields`: a 1 MiB body of empty objects would
 * otherwise answer tens of megabytes. The message says how many more there are.
 */
export const MAX_FIELD_ERRORS = 100;

export interface FieldErrors {
  /** The first MAX_FIELD_ERRORS problems, in the order of the body. */
  fields: FieldError[];
  /** Every problem, listed or not. */
  total: number;
  /** True when a required field is missing (400 wins over 422). */
  missing: boolean;
  /** The first missing field, listed or not. */
  firstMissing: FieldError | undefined;
}

const SAFE_MAX = groupDigits(Number.MAX_SAFE_INTEGER);

/** zod's integer check on a whole number outside ±(2^53 − 1). */
const isSafeRangeIssue = (issue: z.core.$ZodIssue): boolean =>
  (issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'int';

const samePath = (a: z.core.$ZodIssue | undefined, b: z.core.$ZodIssue): boolean =>
  a !== undefined && a.path.length === b.path.length && a.path.every((key, i) => key === b.path[i]);

/** Zod issues → the spec's `fields`, one entry per faulty path (unknown keys named one by one). */
export function toFieldErrors(input: unknown, error: z.ZodError): FieldErrors {
  const fields: FieldError[] = [];
  let total = 0;
  let firstMissing: FieldError | undefined;
  const add = (path: readonly PropertyKey[], message: string) => {
    total += 1;
    if (fields.length < MAX_FIELD_ERRORS) fields.push({ path: formatPath(path), message });
  };
  const issues = error.issues;
  issues.forEach((issue, i) => {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'unknown field');
      return;
    }
    // A type, union or enum/literal failure where nothing was sent: the field is missing.
    if (
      (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') &&
      valueAt(input, issue.path) === undefined
    ) {
      firstMissing ??= { path: formatPath(issue.path), message: 'is required' };
      add(issue.path, 'is required');
      return;
    }
    if (isSafeRangeIssue(issue)) {
      // zod's `.int()` reports a whole number beyond 2^53 − 1 with the "must be an integer" message;
      // say what is wrong instead, unless a more specific rule on the same value already does.
      if (samePath(issues[i - 1], issue) || samePath(issues[i + 1], issue)) return;
      add(issue.path, issue.code === 'too_big' ? `must be at most ${SAFE_MAX}` : `must be at least -${SAFE_MAX}`);
      return;
    }
    add(issue.path, issue.message);
  });
  return { fields, total, missing: firstMissing !== undefined, firstMissing };
}

/** " (and 3 more)" / " (and 79,999 more; fields lists the first 100)" after the first problem. */
function more(total: number, listed: number): string {
  if (total <= 1) return '';
  const count = groupDigits(total - 1);
  return total > listed ? ` (and ${count} more; fields lists the first ${listed})` : ` (and ${count} more)`;
}

/**
 * The failure for a body that did not parse: a missing required field is a 400 `missing_field`;
 * any other failure (unknown field, wrong type, bad value) is a 422 `validation_failed`. Both
 * list every problem in `fields`, up to MAX_FIELD_ERRORS; the message names the first (the first
 * missing field on a 400) and counts the rest.
 */
export function validationError(input: unknown, error: z.ZodError): GatewayError {
  const { fields, total, missing, firstMissing } = toFieldErrors(input, error);
  const first = missing ? firstMissing : fields[0];
  const summary = first ? `${first.path} ${first.message}` : 'invalid body';
  return new GatewayError(missing ? 'missing_field' : 'validation_failed', {
    message: `${missing ? 'A required field is missing' : 'The request failed validation'}: ${summary}${more(total, fields.length)}.`,
    fields,
  });
}

/** Parse a request body against a canonical schema, or throw its validationError. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(input, result.error);
}
