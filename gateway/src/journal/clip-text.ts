import { toStorableText } from '@loyalty-gateway/core';

/** Ends a text the journal cut short, so a reader knows there was more. */
export const CLIPPED = '[clipped]';

/**
 * A text value as the journal keeps it: at most `max` characters, ending with CLIPPED when it was
 * longer (`marked`; ids are cut without a mark: a lookup compares them as stored); NUL characters
 * (valid in a JSON string, refused by PostgreSQL's text type) and lone surrogates (which a
 * request's JSON may carry and a cut may leave; refused by PostgreSQL's JSON input) as U+FFFD, on
 * both dialects alike. Either would otherwise fail the whole batch it is written in.
 */
export function clipText(value: string | null | undefined, max = 255, marked = true): string | null {
  if (value == null) return null;
  if (value.length <= max) return toStorableText(value);
  return toStorableText(marked ? `${value.slice(0, max - CLIPPED.length)}${CLIPPED}` : value.slice(0, max));
}

export interface FieldError {
  path: string;
  message: string;
}

/** A validation error's fields as kept: each path and message capped, at most 50, 8 KiB in all. */
export const FIELDS_LIMITS = Object.freeze({ path: 200, message: 300, count: 50, chars: 8_192 });

/**
 * A validation error's fields as the journal stores them (JSON), or null for none. A strict schema
 * names every unknown key, so one signed 1 MB body of unknown keys was ~950 KB of `fields`: each
 * path and message is capped (marked), at most FIELDS_LIMITS.count are kept and their JSON stays
 * within FIELDS_LIMITS.chars; what was left out is said by a last field, `[clipped]`: `N more
 * fields not kept`.
 */
export function clipFields(fields: readonly FieldError[] | null | undefined): string | null {
  if (!fields || fields.length === 0) return null;
  const kept: FieldError[] = [];
  let chars = 2;
  const tail = (left: number) => ({ path: CLIPPED, message: `${left} more fields not kept` });
  const room = FIELDS_LIMITS.chars - JSON.stringify(tail(fields.length)).length - 1;
  for (const field of fields) {
    if (kept.length === FIELDS_LIMITS.count) break;
    const clipped = { path: clipText(field.path, FIELDS_LIMITS.path)!, message: clipText(field.message, FIELDS_LIMITS.message)! };
    const size = JSON.stringify(clipped).length + 1;
    if (chars + size > room) break;
    kept.push(clipped);
    chars += size;
  }
  if (kept.length < fields.length) kept.push(tail(fields.length - kept.length));
  return JSON.stringify(kept);
}
