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

/**
 * One error handler: a coded engine error keeps its status and code; the engine's own
 * EngineUnavailableError (a call past its deadline, rolled back) is 503 `engine_unavailable`; a
 * bad command is 400; a request Fastify itself refuses keeps its 4xx; anything else is logged and
 * answered 500 `internal_error`, or 503 `engine_unavailable` when the engine's storage is unreachable.
 */
export function errorReplier(options: ErrorReplyOptions) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (error instanceof EngineUnavailableError) {
      request.log.warn({ err: error }, 'engine call answered unavailable (nothing committed)');
      return void reply.code(503).send({ code: 'engine_unavailable', message: error.message } satisfies EngineErrorBody);
    }
    if (error instanceof GatewayError) {
      const body: EngineErrorBody = { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
      return void reply.code(error.statusCode).send(body);
    }
    if (error instanceof InvalidCommandError) {
      return void reply.code(400).send({ code: 'invalid_command', message: error.message, fields: error.fields } satisfies EngineErrorBody);
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return void reply.code(error.statusCode).send({ code: 'bad_request', message: error.message } satisfies EngineErrorBody);
    }
    request.log.error({ err: error }, 'engine request failed');
    const reachable = await options.ping().then(
      () => true,
      () => false,
    );
    if (!reachable) {
      return void reply
        .code(503)
        .send({ code: 'engine_unavailable', message: 'The loyalty engine cannot reach its storage.' } satisfies EngineErrorBody);
    }
    return void reply
      .code(500)
      .send({ code: 'internal_error', message: 'The loyalty engine failed unexpectedly.' } satisfies EngineErrorBody);
  };
}
