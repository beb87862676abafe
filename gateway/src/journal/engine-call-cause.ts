import { ERRORS, EngineError, EngineUnavailableError } from '@loyalty-gateway/core';
import { EngineCallFailure, type EngineFailureKind } from '../engine-client/index.js';
import type { FailureCause } from './failure-cause.js';

/** How each way a remote engine call fails is said. */
const KIND: Record<EngineFailureKind, string> = {
  connection: 'connection failed',
  timeout: 'timed out',
  unavailable_status: 'unavailable',
  bad_response: 'unreadable answer',
  circuit_open: 'circuit breaker open',
};

/** A remote call's message without its label (`POST /v1/earn: …`): the cause names the operation already. */
const withoutLabel = (message: string): string => message.replace(/^(?:GET|POST) \/\S*: /, '');

/**
 * What happened to an engine port call that failed, or null when the engine answered (an
 * EngineError of 4xx is its verdict, not a failure). A remote engine's failure says its kind
 * (connection failed, timed out, unavailable, unreadable answer, circuit breaker open) and the
 * client's detail; the embedded engine's says it was unavailable and why in its own words.
 * Unexpected errors give their name only: their messages are not ours to show.
 */
export function engineCallWhat(error: unknown): string | null {
  if (error instanceof EngineUnavailableError) {
    const cause = error.cause;
    if (cause instanceof EngineCallFailure) return `${KIND[cause.kind]}: ${withoutLabel(cause.message)}`;
    // The table's default message says nothing the code does not: the cause then says why (the
    // embedded engine's worker thread stopped). A message of its own is the engine's words (its
    // database unreachable), and its cause (a driver's error) stays in the log.
    const generic = error.message === ERRORS.engine_unavailable.message;
    return `unavailable: ${generic && cause instanceof Error && cause.message !== '' ? cause.message : error.message}`;
  }
  if (error instanceof EngineError) return error.statusCode >= 500 ? `failed: ${error.message}` : null;
  return `failed: ${error instanceof Error ? error.name : typeof error} (the gateway's log has the details)`;
}

/** An engine port call that failed, as the journal keeps it; null when the engine answered. */
export function engineCallFailure(operation: string, error: unknown, ms: number): FailureCause | null {
  const what = engineCallWhat(error);
  return what === null ? null : { call: `engine ${operation}`, what, ms };
}
