import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { GatewayError } from './errors.js';
import { MAX_FIELD_ERRORS, parseOrThrow } from './validation.js';

const Line = z.strictObject({ name: z.string(), quantity: z.number() });
const Body = z.strictObject({ id: z.string(), items: z.array(Line) });

function failure(input: unknown): GatewayError {
  try {
    parseOrThrow(Body, input);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a validation failure');
}

describe('parseOrThrow', () => {
  it('lists every problem when there are few', () => {
    const error = failure({ items: [{ name: 1, quantity: 1, x: 1 }] });
    expect(error.code).toBe('missing_field');
    expect(error.fields).toEqual([
      { path: 'id', message: 'is required' },
      { path: 'items[0].name', message: expect.any(String) },
      { path: 'items[0].x', message: 'unknown field' },
    ]);
    expect(error.message).toBe('A required field is missing: id is required (and 2 more).');
  });

  it(`40,000 empty items list the first ${MAX_FIELD_ERRORS} fields, not all of them (120,000, 8 MB); the message counts the rest`, () => {
    const error = failure({ id: 'x', items: Array.from({ length: 40_000 }, () => ({})) });
    expect(error.code).toBe('missing_field');
    expect(error.fields).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.fields![0]).toEqual({ path: 'items[0].name', message: 'is required' });
    expect(error.message).toBe(
      `A required field is missing: items[0].name is required (and 79,999 more; fields lists the first ${MAX_FIELD_ERRORS}).`,
    );
  });

  it('counts unknown keys one by one, and 400 still wins when the first missing field is beyond the listed ones', () => {
    const extras = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const error = failure({ ...extras, items: [] });
    expect(error.code).toBe('missing_field');
    expect(error.fields).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.message).toBe(`A required field is missing: id is required (and 150 more; fields lists the first ${MAX_FIELD_ERRORS}).`);
  });
});
