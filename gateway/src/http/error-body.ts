import {
  ERRORS,
  GatewayError,
  groupDigits,
  MAX_FIELD_ERRORS,
  type ErrorBody,
  type ErrorCode,
  type ErrorEntry,
  type FieldError,
} from '@loyalty-gateway/core';
import { isConnectionLoss } from '@loyalty-gateway/storage';

/** Fastify's own errors, by their code, to ours. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_BAD_URL: 'not_found',
  // A path parameter longer than any id (app.ts, maxParamLength).
  FST_ERR_MAX_PARAM_LENGTH: 'not_found',
  FST_ERR_NOT_FOUND: 'not_found',
  FST_ERR_ASYNC_CONSTRAINT: 'not_found',
};

/** Other client errors without a code of their own, by HTTP status. */
const BY_STATUS: Record<number, ErrorCode> = {
  400: 'malformed_body',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

export interface RenderedError {
  body: ErrorBody;
  headers: Record<string, string> | undefined;
  /** True for faults of the service (logged with their stack); false for the client's mistakes. */
  fault: boolean;
}

/**
 * At most MAX_FIELD_ERRORS entries in `fields`, whoever built the error (validation errors are
 * capped already and say so; this also bounds errors that list, say, every duplicate of a catalog).
 */
function capped(message: string, fields: FieldError[]): { message: string; fields: FieldError[] } {
  if (fields.length <= MAX_FIELD_ERRORS) return { message, fields };
  const note = `${groupDigits(fields.length)} problems; fields lists the first ${MAX_FIELD_ERRORS}`;
  return { message: `${message.replace(/\.$/, '')} (${note}).`, fields: fields.slice(0, MAX_FIELD_ERRORS) };
}

/**
 * Any thrown value → the spec's Error body. GatewayErrors render as they are; Fastify's client
 * errors map to the table; everything else is a 500 whose message never leaks internals.
 */
export function renderError(error: unknown, requestId: string): RenderedError {
  if (error instanceof GatewayError) {
    const body: ErrorBody = { statusCode: error.statusCode, message: error.message, code: error.code, requestId };
    if (error.fields) Object.assign(body, capped(error.message, error.fields));
    // A process stopping is expected, not a fault: logged with the request line, not as an error.
    return { body, headers: error.headers, fault: error.statusCode >= 500 && error.code !== 'shutting_down' };
  }
  const e = error as { code?: unknown; statusCode?: unknown } | null;
  const mapped =
    (typeof e?.code === 'string' ? FASTIFY_CODES[e.code] : undefined) ??
    (typeof e?.statusCode === 'number' ? BY_STATUS[e.statusCode] : undefined);
  // The gateway's own database down or restarting: retryable, not a fault of this request.
  const code: ErrorCode = mapped ?? (isConnectionLoss(error) ? 'service_unavailable' : 'internal_error');
  const entry: ErrorEntry = ERRORS[code];
  return {
    body: { statusCode: entry.status, message: entry.message, code, requestId },
    headers: entry.headers ? { ...entry.headers } : undefined,
    fault: code === 'internal_error',
  };
}
