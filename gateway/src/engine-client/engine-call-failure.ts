import { EngineError, EngineUnavailableError, isErrorCode } from '@loyalty-gateway/core';

/** Why a call to the engine service did not get an answer; kept as the `cause` of EngineUnavailableError. */
export type EngineFailureKind = 'connection' | 'timeout' | 'unavailable_status' | 'bad_response' | 'circuit_open';

/**
 * The technical detail of an unavailable engine (socket error, timeout, status). It is the
 * `cause` of the EngineUnavailableError the port throws, so logs see it and vendors see only the
 * error table's message.
 */
export class EngineCallFailure extends Error {
  override readonly name = 'EngineCallFailure';
  constructor(
    readonly kind: EngineFailureKind,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}

export const engineUnavailable = (kind: EngineFailureKind, message: string, cause?: unknown): EngineUnavailableError =>
  new EngineUnavailableError(undefined, new EngineCallFailure(kind, message, cause));

export const failureKind = (error: unknown): EngineFailureKind | undefined =>
  error instanceof EngineUnavailableError && error.cause instanceof EngineCallFailure ? error.cause.kind : undefined;

const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

interface WireError {
  code?: unknown;
  message?: unknown;
  fields?: unknown;
}

const isFieldList = (value: unknown): value is Array<{ path: string; message: string }> =>
  Array.isArray(value) && value.every((f) => typeof f?.path === 'string' && typeof f?.message === 'string');

/**
 * An error answer of the engine service → the port's error. 502/503/504, and any 5xx without a
 * coded JSON body (a proxy's page), mean the engine is unavailable. A coded answer is an
 * EngineError with the same code and message (`fields` kept); a code outside the error table is
 * `internal_error` (the service refused the gateway's token or command: a deployment fault).
 */
export function errorFromAnswer(label: string, status: number, body: unknown): EngineError | EngineUnavailableError {
  const wire = (typeof body === 'object' && body !== null ? body : {}) as WireError;
  const code = typeof wire.code === 'string' ? wire.code : undefined;
  const message = typeof wire.message === 'string' ? wire.message : undefined;
  if (UNAVAILABLE_STATUSES.has(status) || (status >= 500 && code === undefined)) {
    return engineUnavailable('unavailable_status', `${label}: the engine service answered ${status}${code ? ` ${code}` : ''}`);
  }
  if (code === undefined || !isErrorCode(code)) {
    return new EngineError(
      'internal_error',
      `The loyalty engine refused the request (${label}: ${status} ${code ?? 'without a code'}${message ? `: ${message}` : ''}).`,
    );
  }
  return new EngineError(code, message, isFieldList(wire.fields) ? wire.fields : undefined);
}
