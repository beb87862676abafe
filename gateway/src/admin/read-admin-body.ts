import { GatewayError, parseOrThrow, toFieldErrors } from '@loyalty-gateway/core';
import type { z } from 'zod';
import { parseJsonObject } from '../webhooks/read-envelope.js';
import { IdParams, SlugParams } from './admin-schemas.js';

/** For actions whose body is optional (`{}` or nothing at all). */
export function readOptionalBody<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const empty = raw === undefined || raw === null || (Buffer.isBuffer(raw) && raw.length === 0);
  return parseOrThrow(schema, empty ? {} : parseJsonObject(raw));
}

/** Query strings through a strict schema: 422 validation_failed naming each bad parameter. */
export function readQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const result = schema.safeParse(query ?? {});
  if (result.success) return result.data;
  const { fields } = toFieldErrors(query, result.error);
  throw new GatewayError('validation_failed', {
    message: `Invalid query: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}.`,
    fields,
  });
}

/** An adapter's schema (settings, credentials) → 422 with `fields` under a prefix; the values are never echoed. */
export function fieldsOf(error: z.ZodError, input: unknown, prefix = ''): Array<{ path: string; message: string }> {
  return toFieldErrors(input, error).fields.map((f) => ({
    path: prefix && f.path === '(body)' ? prefix : prefix ? `${prefix}.${f.path}` : f.path,
    message: f.message,
  }));
}

/** `:slug` of the path; a slug that cannot exist is simply not found. */
export function slugParam(params: unknown): string {
  const parsed = SlugParams.safeParse(params);
  if (!parsed.success) throw new GatewayError('vendor_not_found');
  return parsed.data.slug;
}

/** `:id` of a connection path. */
export function connectionIdParam(params: unknown): string {
  const parsed = IdParams.safeParse(params);
  if (!parsed.success) throw new GatewayError('connection_not_found');
  return parsed.data.id;
}
