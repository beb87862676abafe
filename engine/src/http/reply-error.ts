import { EngineUnavailableError, GatewayError, toFieldErrors } from '@loyalty-gateway/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** Wire body of every error the engine service answers: `{ code, message, fields? }`. */
export interface EngineErrorBody {
  code: string;
  message: string;
  fields?: Array<{ path: string; message: string }>;
}

/** A request body that does not fit the port command: a gateway bug, answered 400. */
export class InvalidCommandError extends Error {
  override readonly name = 'InvalidCommandError';
  constructor(readonly fields: Array<{ path: string; message: string }>) {
    super(`The engine command is invalid: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}.`);
  }
}

/** Parse a command body or throw InvalidCommandError listing every faulty field. */
export function parseCommand<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new InvalidCommandError(toFieldErrors(body, result.error).fields);
}

export interface ErrorReplyOptions {
  /** Whether the engine can still serve: an unexpected failure while it cannot is a 503. */
  ping(): Promise<void>;
}

/** An error as the engine service answers it: the HTTP status and the `{ code, message, fields? }` body. */
export interface RenderedError {
  status: number;
  body: EngineErrorBody;
}

/** Where renderError writes what it logs (a request's logger). */
interface ErrorLog {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * An error → the status and body the service answers with: a coded engine error keeps its status
 * and code; the engine's own EngineUnavailableError (a call past its deadline, rolled back) is 503
 * `engine_unavailable`; a bad command is 400; a request Fastify itself refuses keeps its 4xx;
 * anything else is logged and answered 500 `internal_error`, or 503 `engine_unavailable` when the
 * engine's storage is unreachable. One rendering for a single call's answer and for each result of
 * a batch (`POST /v1/commands`).
 */
export async function renderError(error: unknown, log: ErrorLog, options: ErrorReplyOptions): Promise<RenderedError> {
  if (error instanceof EngineUnavailableError) {
    log.warn({ err: error }, 'engine call answered unavailable (nothing committed)');
    return { status: 503, body: { code: 'engine_unavailable', message: error.message } };
  }
  if (error instanceof GatewayError) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
    };
  }
  if (error instanceof InvalidCommandError) {
    return { status: 400, body: { code: 'invalid_command', message: error.message, fields: error.fields } };
  }
  const statusCode = (error as Partial<FastifyError> | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: { code: 'bad_request', message: (error as Error).message } };
  }
  log.error({ err: error }, 'engine request failed');
  const reachable = await options.ping().then(
    () => true,
    () => false,
  );
  if (!reachable) return { status: 503, body: { code: 'engine_unavailable', message: 'The loyalty engine cannot reach its storage.' } };
  return { status: 500, body: { code: 'internal_error', message: 'The loyalty engine failed unexpectedly.' } };
}

/** The service's error handler: renderError's answer, logged on the request's logger. */
export function errorReplier(options: ErrorReplyOptions) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { status, body } = await renderError(error, request.log, options);
    return void reply.code(status).send(body);
  };
}
