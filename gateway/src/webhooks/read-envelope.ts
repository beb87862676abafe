import { GatewayError, inSpan, isKnownEventType, parseEnvelope, parseOrThrow, type Envelope } from '@loyalty-gateway/core';
import type { z } from 'zod';

/** Strict UTF-8: bytes that are not UTF-8 are not JSON (RFC 8259 §8.1). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The verified raw body → a JSON object, or 400 malformed_json / malformed_body. */
export function parseJsonObject(raw: unknown): Record<string, unknown> {
  if (!Buffer.isBuffer(raw) || raw.length === 0) {
    throw new GatewayError('malformed_json', { message: 'The request body is empty: send the event as a JSON object.' });
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(raw));
  } catch {
    throw new GatewayError('malformed_json');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GatewayError('malformed_body');
  return value as Record<string, unknown>;
}

/**
 * A JSON body (the verified raw bytes, as the app receives every JSON body) through a strict
 * schema: 400 malformed_json / malformed_body as the webhook's, then 400 missing_field or 422
 * validation_failed with `fields`. The checkout calls and the admin API read theirs with it.
 */
export function readJsonBody<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  return parseOrThrow(schema, parseJsonObject(raw));
}

export type ReadEnvelope = { kind: 'envelope'; envelope: Envelope } | { kind: 'unknown-event-type'; eventType: string };

/**
 * The webhook body → a validated canonical Envelope. An eventType that is a string but not one of
 * the three known ones is a business outcome (200 ignored), recognised before any other field is
 * validated so a vendor's new event types never bounce. Everything else goes through the strict
 * schema (400 missing_field / 422 validation_failed); with eventType missing or not a string, the
 * shared fields are still checked, so `fields` lists every problem.
 */
export function readEnvelope(raw: unknown): ReadEnvelope {
  // A span of its own when tracing (the handler's context is active): JSON parsing and the schema.
  return inSpan('validate envelope', {}, (span) => {
    const body = parseJsonObject(raw);
    const eventType = body.eventType;
    if (typeof eventType === 'string' && !isKnownEventType(eventType)) return { kind: 'unknown-event-type', eventType };
    const envelope = parseEnvelope(body);
    span.set({ 'loyalty.event_type': envelope.eventType });
    return { kind: 'envelope', envelope };
  });
}
