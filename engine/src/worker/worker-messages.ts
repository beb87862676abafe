import {
  EngineError,
  EngineUnavailableError,
  GatewayError,
  isErrorCode,
  type EngineCallOptions,
  type FieldError,
} from '@loyalty-gateway/core';
import type { MessagePort } from 'node:worker_threads';
import type { DatabaseOptions } from '@loyalty-gateway/storage';
import type { EngineNotice } from '../ledger/create-embedded-engine.js';

/** The engine operations a worker serves: the port's, plus seeding (not part of the port). */
export type WorkerMethod =
  | 'earn'
  | 'raiseSale'
  | 'previewEarn'
  | 'reverse'
  | 'withdrawRefunds'
  | 'eligibility'
  | 'redeem'
  | 'catalogSync'
  | 'findOutlet'
  | 'reversedOrders'
  | 'listMerchants'
  | 'ping'
  | 'applySeed'
  | 'close';

/** What the worker is started with (structured-cloned into it). */
export interface EngineWorkerData {
  database: DatabaseOptions;
  codePrefix?: string | undefined;
  groupCommitLanes?: number | undefined;
}

export interface CallMessage {
  id: number;
  method: WorkerMethod;
  argument: unknown;
  /** The port call's options (its deadline), forwarded to the engine as they came. */
  options?: EngineCallOptions | undefined;
}

/**
 * A batch of calls or replies as it crosses the thread boundary: one JSON string when it encodes
 * (every call and reply of the port is plain JSON data, as the remote engine's HTTP transport sends
 * them), else the array itself, structured-cloned by postMessage. A string crosses as one copy of its
 * bytes; an array of nested objects is walked by V8's serializer on this side and rebuilt property
 * by property on the other, which on the earn path cost about twice JSON.stringify and JSON.parse
 * (docs/benchmarks.md, "Against the handler a team would write").
 */
export type WireBatch<T> = string | T[];

export function packBatch<T>(batch: T[]): WireBatch<T> {
  try {
    return JSON.stringify(batch);
  } catch {
    return batch; // a value JSON cannot carry (a BigInt, a cycle): structured clone
  }
}

export function unpackBatch<T>(message: WireBatch<T>): T[] {
  return typeof message === 'string' ? (JSON.parse(message) as T[]) : message;
}

/**
 * Sent by the owner (hostOnEngineThread): load `module` on the engine's thread and run its
 * `serve(port, data)` there, beside the engine, talking to its owner over `port` only.
 */
export interface HostMessage {
  host: { module: string; data: unknown; port: MessagePort };
}

export const isHostMessage = (message: unknown): message is HostMessage =>
  typeof message === 'object' && message !== null && !Array.isArray(message) && 'host' in message;

/** Sent on a hosted service's port, then closed, when its module could not be loaded or started. */
export interface HostFailedMessage {
  hostFailed: string;
}

/** A failure as it crosses the thread boundary: coded errors keep code, message and fields. */
export type WireError =
  | { kind: 'engine' | 'coded'; code: string; message: string; fields?: FieldError[] | undefined }
  | { kind: 'unexpected'; name: string; message: string; code?: string | undefined; stack?: string | undefined };

export type ReplyMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** Sent by the worker on its own (not an answer): a notice of the engine's for the owner's log. */
export interface NoticeMessage {
  notice: EngineNotice;
}

/**
 * Sent once by the worker: the engine is open (migrations ran), or why it could not open.
 * `heapSizeLimit`: the thread's V8 heap limit in bytes, as V8 applied it (resourceLimits or process flags).
 */
export type StartMessage = { started: true; heapSizeLimit: number } | { started: false; error: WireError };

export function toWireError(error: unknown): WireError {
  if (error instanceof GatewayError) {
    return { kind: error instanceof EngineError ? 'engine' : 'coded', code: error.code, message: error.message, fields: error.fields };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  return { kind: 'unexpected', name: e.name, message: e.message, code: typeof code === 'string' ? code : undefined, stack: e.stack };
}

/** The error the caller sees: the same class as in the worker for coded errors, an Error otherwise. */
export function fromWireError(wire: WireError): Error {
  if (wire.kind !== 'unexpected' && isErrorCode(wire.code)) {
    // The engine's own unavailability (a call past its deadline, rolled back) stays that class.
    if (wire.code === 'engine_unavailable') return new EngineUnavailableError(wire.message);
    if (wire.kind === 'coded')
      return new GatewayError(wire.code, { message: wire.message, ...(wire.fields ? { fields: wire.fields } : {}) });
    return new EngineError(wire.code, wire.message, wire.fields);
  }
  if (wire.kind !== 'unexpected') return new EngineError('internal_error', wire.message);
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  if (wire.code) Object.assign(error, { code: wire.code });
  return error;
}

/** The worker thread stopped (crashed, or was terminated): calls in flight have an unknown outcome. */
export const workerStopped = (detail: string): EngineUnavailableError =>
  new EngineUnavailableError(undefined, new Error(`the loyalty engine's worker thread stopped: ${detail}`));
