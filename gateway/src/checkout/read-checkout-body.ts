import { parseOrThrow } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { parseJsonObject } from '../webhooks/read-envelope.js';

/**
 * The verified raw body of a checkout call → its validated request: 400 malformed_json /
 * malformed_body (the same reading as the webhook), then the strict schema (400 missing_field,
 * 422 validation_failed with `fields`).
 */
export function readCheckoutBody<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  return parseOrThrow(schema, parseJsonObject(raw));
}
