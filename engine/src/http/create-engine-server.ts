import type { EngineCallOptions, LoyaltyEngine } from '@loyalty-gateway/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { z } from 'zod';
import { hasBearerToken } from './bearer-token.js';
import { arrivalOf, deadlineOf, noteArrival } from './call-deadline.js';
import { BATCH_PATH, BatchCallSchema, CommandBatchSchema, type BatchResult } from './command-batch.js';
import {
  CatalogSyncCommandSchema,
  EarnCommandSchema,
  EligibilityCommandSchema,
  OutletQuerySchema,
  ReversedOrdersQuerySchema,
  RedeemCommandSchema,
  ReverseCommandSchema,
  WithdrawRefundsCommandSchema,
} from './command-schemas.js';
import { errorReplier, parseCommand, renderError, type EngineErrorBody } from './reply-error.js';

export interface EngineServerOptions {
  /** The engine served; owned by the caller (closing the server does not close it). */
  engine: LoyaltyEngine;
  /** When set, every /v1 route needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Fastify logger options (default: off), or a pino logger already made. */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyBaseLogger | undefined;
  /** Whether `POST /v1/commands` is served (default true); without it the route is unknown (404). */
  batches?: boolean | undefined;
  /** Largest request body accepted (default 16 MiB: full catalog snapshots). */
  bodyLimit?: number | undefined;
}

type Options = EngineCallOptions;

type Command = { schema: z.ZodType; run: (e: LoyaltyEngine, c: unknown, o: Options) => Promise<unknown> };

/** A command's schema and the port call it runs, the command typed from its schema. */
const command = <S extends z.ZodType>(schema: S, run: (e: LoyaltyEngine, c: z.infer<S>, o: Options) => Promise<unknown>): Command => ({
  schema,
  run: run as Command['run'],
});

/** Path → the schema of its command and the port method it runs. */
const COMMANDS: Record<string, Command> = {
  '/v1/earn': command(EarnCommandSchema, (e, c, o) => e.earn(c, o)),
  '/v1/raise-sale': command(EarnCommandSchema, (e, c, o) => e.raiseSale(c, o)),
  '/v1/preview-earn': command(EarnCommandSchema, (e, c, o) => e.previewEarn(c, o)),
  '/v1/reverse': command(ReverseCommandSchema, (e, c, o) => e.reverse(c, o)),
  '/v1/withdraw-refunds': command(WithdrawRefundsCommandSchema, (e, c, o) => e.withdrawRefunds(c, o)),
  '/v1/eligibility': command(EligibilityCommandSchema, (e, c, o) => e.eligibility(c, o)),
  '/v1/redeem': command(RedeemCommandSchema, (e, c, o) => e.redeem(c, o)),
  '/v1/catalog-sync': command(CatalogSyncCommandSchema, (e, c, o) => e.catalogSync(c, o)),
  '/v1/find-outlet': command(OutletQuerySchema, (e, c) => e.findOutlet(c)),
  '/v1/reversed-orders': command(ReversedOrdersQuerySchema, (e, c) => e.reversedOrders(c)),
};

const UNAUTHORIZED: EngineErrorBody = { code: 'unauthorized', message: 'Missing or wrong engine bearer token.' };

/**
 * The loyalty engine as an HTTP service: the LoyaltyEngine port one-to-one as JSON, for the
 * gateway's HTTP engine client. `GET /health` is liveness (no auth); `GET /v1/ping` is readiness.
 * A call carrying the `x-engine-budget-ms` header gets the deadline arrival + budget: the engine
 * does not commit it past that (it answers 503 engine_unavailable, nothing written).
 * `POST /v1/commands` carries many of the POST calls at once (command-batch.ts): each runs as its
 * own endpoint would run it, concurrently with the others (the engine's group commit takes them
 * together), with its own budget, and gets its own status and body, in order.
 */
export function createEngineServer(options: EngineServerOptions): FastifyInstance {
  const { engine, token } = options;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? false }),
    bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
  }) as FastifyInstance;

  const rendering = { ping: () => engine.ping() };
  app.setErrorHandler(errorReplier(rendering));
  app.addHook('onRequest', async (request) => noteArrival(request));
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url}.` } satisfies EngineErrorBody);
  });

  if (token) {
    app.addHook('onRequest', async (request, reply) => {
      if (request.url === '/health') return;
      if (!hasBearerToken(request.headers.authorization, token)) return reply.code(401).send(UNAUTHORIZED);
    });
  }

  app.get('/health', async (_request, reply) => reply.type('text/plain').send('ok'));

  app.get('/v1/merchants', async () => ({ merchants: await engine.listMerchants() }));

  app.get('/v1/ping', async (request, reply) => {
    try {
      await engine.ping();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'engine ping failed');
      return reply.code(503).send({ code: 'engine_unavailable', message: 'The loyalty engine is not ready.' } satisfies EngineErrorBody);
    }
  });

  const byOperation = new Map<string, Command>();
  for (const [path, { schema, run }] of Object.entries(COMMANDS)) {
    byOperation.set(path.slice('/v1/'.length), { schema, run });
    app.post(path, async (request) => run(engine, parseCommand(schema, request.body), { deadline: deadlineOf(request) }));
  }

  if (options.batches === false) return app;
  app.post(BATCH_PATH, async (request) => {
    const { calls } = parseCommand(CommandBatchSchema, request.body);
    const arrival = arrivalOf(request);
    // The header, when sent, is the budget of the calls that carry none of their own.
    const fallback = deadlineOf(request);
    const results = await Promise.all(
      calls.map(async (raw): Promise<BatchResult> => {
        try {
          const call = parseCommand(BatchCallSchema, raw);
          const { schema, run } = byOperation.get(call.op)!;
          const deadline = call.budgetMs === undefined ? fallback : arrival + call.budgetMs;
          return { status: 200, body: await run(engine, parseCommand(schema, call.command), { deadline }) };
        } catch (error) {
          return renderError(error, request.log, rendering);
        }
      }),
    );
    return { results };
  });
  return app;
}
