import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import { GatewayError, tracingOn, type ConnectionStore, type IdempotencyCache, type LoyaltyEngine } from '@loyalty-gateway/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import type { Redis } from 'ioredis';
import type { LoggerOptions } from 'pino';
import { registerAdminRoutes, type AdminOptions } from './admin/index.js';
import { v1AuthScope } from './auth/v1-auth-plugin.js';
import { registerDirectory, type DirectoryOptions } from './directory/index.js';
import { registerFeaturedDoors, type FeaturedDoorOptions } from './featured/index.js';
import {
  catalogPullerOf,
  registerCheckoutRoutes,
  registerDisabledCheckoutRoutes,
  type CheckoutFeature,
  type CheckoutRoutesOptions,
  type GatewayEnvironment,
} from './checkout/index.js';
import { registerHealth } from './health-route.js';
import { registerMetrics, type GatewayMetrics } from './metrics/index.js';
import { BODY_LIMIT } from './http/body-limit.js';
import { clientErrorHandler, refuseConnect } from './http/client-errors.js';
import { drainUnreadBody } from './http/drain-unread-body.js';
import { ClockSkewTracker } from './http/clock-skew.js';
import { ConnectionActivity } from './http/connection-activity.js';
import { registerRefusalLimit } from './http/refusal-limit.js';
import { errorHandlingPlugin } from './http/error-handling.js';
import { rateLimitOptions } from './http/rate-limit-options.js';
import { registerOpenApi } from './openapi/openapi-route.js';
import { registerReadiness, type ReadinessCheck } from './readiness-route.js';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.js';
import { RequestLogController } from './http/request-log.js';
import { createReplayTickets, registerJournalHook, traceEngineFailures, type DeliveryJournal } from './journal/index.js';
import { registerDeliveryLog, registerDeliveryLogOff } from './journal/delivery-log-route.js';
import { requestId } from './http/request-id.js';
import { sendError } from './http/send-error.js';
import { registerTraceOutcome } from './tracing/trace-request-outcome.js';
import { registerGenericWebhook } from './webhooks/generic-webhook-route.js';
import { registerEarnPreview } from './webhooks/earn-preview-route.js';
import { createWebhookPipeline, type WebhookPipeline } from './webhooks/webhook-pipeline.js';

export { BODY_LIMIT };

export interface AppOptions {
  engine: LoyaltyEngine;
  connections: ConnectionStore;
  idempotency: IdempotencyCache;
  /** Shared rate-limit counters across processes; in-process counters when absent. */
  redis?: Redis | null | undefined;
  /** Milliseconds since the epoch (timestamp window); Date.now by default. */
  clock?: (() => number) | undefined;
  /**
   * GATEWAY_RATE_LIMIT requests per window (one minute unless a test shortens it) per connection;
   * the earn preview's and the delivery log's own budgets (GATEWAY_PREVIEW_RATE_LIMIT, GATEWAY_DELIVERY_LOG_RATE_LIMIT).
   */
  rateLimit: { max: number; windowMs?: number | undefined; preview?: number | undefined; deliveryLog?: number | undefined };
  /** pino options, or false for no logging (tests)... */
  logger?: LoggerOptions | false | undefined;
  /** ...or a pino logger already made (the composition root logs start-up with it too). */
  loggerInstance?: FastifyBaseLogger | undefined;
  /** Writes the one line per request without redaction (GatewayLogging.requestLine); loggerInstance's children otherwise. */
  requestLineLogger?: FastifyBaseLogger | undefined;
  /** GATEWAY_ENV: the coming checkout endpoints are all on outside production. Default development. */
  environment?: GatewayEnvironment | undefined;
  /** GATEWAY_FEATURES: the coming checkout endpoints enabled in production. */
  features?: readonly CheckoutFeature[] | undefined;
  /** Readiness probe of the gateway store (GET /ready also pings the engine); not checked when absent. */
  storePing?: ReadinessCheck | undefined;
  /** The featured doors `POST /webhooks/{slug}` (one per registered adapter); not mounted when absent. */
  featured?: FeaturedDoorOptions | undefined;
  /** The operator's /admin API (mounted only when `admin.token` is set; 404 otherwise). */
  admin?: AdminOptions | undefined;
  /** The public vendor directory GET /directory and /directory/{slug}; not mounted when absent. */
  directory?: DirectoryOptions | undefined;
  /**
   * The one webhook pipeline of the process (the doors, the earn preview, and the operator side's
   * reconciliation, replay and adapter preview): the composition root's; made here from engine and
   * idempotency cache when absent (an app built on its own).
   */
  pipeline?: WebhookPipeline | undefined;
  /** Prometheus metrics: every request is recorded and GET /metrics serves them behind the admin token. */
  metrics?: GatewayMetrics | undefined;
  /** The delivery journal: every /webhooks/* and /v1/* request recorded after its answer (off when absent). */
  journal?: DeliveryJournal | undefined;
  /** Refused requests (401/403) per client address and window before 429 (GATEWAY_REFUSED_LIMIT); unlimited when absent. */
  refusalLimit?: { max: number; windowMs?: number | undefined; redisReadCacheMs?: number | undefined } | undefined;
  /** GATEWAY_TRUSTED_PROXIES: addresses or CIDRs whose X-Forwarded-For is believed for the client address. */
  trustedProxies?: readonly string[] | undefined;
  /** Request timeout and connection cap of the listener (GATEWAY_REQUEST_TIMEOUT_MS, GATEWAY_MAX_CONNECTIONS). */
  http?: { requestTimeoutMs?: number | undefined; maxConnections?: number | undefined } | undefined;
  /** A server of another kind for this app (the mTLS HTTPS listener: `tls/`); plain HTTP when absent. */
  serverFactory?: FastifyServerFactory | undefined;
}

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is refused 400 (Node's requireHostHeader, here with the Error body). */
const lacksHost = (request: FastifyRequest) => request.raw.httpVersion === '1.1' && request.headers.host === undefined;
const NO_HOST = 'An HTTP/1.1 request needs a Host header.';

/** Defaults of the listener's limits (docs/operators.md, "HTTP limits"). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 4_096;

/**
 * The doors' exactly-once pipeline: a cache failure is logged and treated as a miss, an
 * idempotency conflict logged with its connection and counted (gateway_idempotency_conflicts_total).
 */
export function createDoorPipeline(deps: {
  engine: LoyaltyEngine;
  cache: IdempotencyCache;
  log: Pick<FastifyBaseLogger, 'warn'>;
  metrics?: GatewayMetrics | null | undefined;
}): WebhookPipeline {
  const { log, metrics } = deps;
  return createWebhookPipeline({
    engine: deps.engine,
    cache: deps.cache,
    onCacheError: (error, operation) => log.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
    onConflict: ({ connection, transactionId, firstReceivedAt, source }) => {
      log.warn(
        { vendor: connection.vendor, store: connection.storeId, connectionId: connection.id, transactionId, firstReceivedAt, source },
        'idempotency conflict: a transaction id already recorded for another sale; answered duplicate, nothing applied',
      );
      metrics?.idempotencyConflicts.inc({ vendor: connection.vendor });
    },
  });
}

/** The gateway's HTTP app with its services resolved; listening is the caller's business. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const requestTimeout = options.http?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // The client error handler logs through the app it belongs to (read when a client errs).
  const app: FastifyInstance = Fastify({
    // A whole request (headers and body) must arrive within requestTimeout, headers alone within
    // 10 s; Node checks at connectionsCheckingInterval, so that is kept well under the timeout.
    requestTimeout,
    http: {
      headersTimeout: Math.min(10_000, requestTimeout),
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
      // Node's own 400 for an HTTP/1.1 request without Host is a bare status: refused below instead, in the Error shape.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(() => app.log),
    // Requests arriving while closing get our 503 (onRequest below), not Fastify's bare one.
    return503OnClosing: false,
    // request.ip: the socket's address, or X-Forwarded-For's when the socket is a trusted proxy.
    trustProxy: options.trustedProxies && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? false }),
    logController: new RequestLogController(options.requestLineLogger),
    childLoggerFactory: lazyChildLoggerFactory,
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    // Every id a path carries reaches its route: admin ids and a caller's request id are up to 255
    // characters (core's operatorId and searchId); the router's default (100) refused longer ones.
    routerOptions: { maxParamLength: 255 },
    // Generated ids carry the app's clock, as the journal's times do (an entry is found by its
    // generated id's time: journal-ids.ts requestIdTime).
    genReqId: (request) => requestId(request, options.clock),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    frameworkErrors: (error, request, reply) => {
      sendError(error, request, reply);
    },
    // No route validates a request with ajv (zod does); should one ever, nothing is coerced or stripped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });

  // JSON arrives as the raw bytes: the signature is verified over them before anything parses them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.server.maxConnections = options.http?.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  // Every header reaches the app: Node's default count limit (2,000 raw entries) dropped the ones
  // past about the thousandth without a word, an Upgrade among them (onSend below must see it).
  // The size limit (16 KiB) bounds them all the same.
  app.server.maxHeadersCount = 0;
  // What Node would answer by itself, answered by the gateway: CONNECT (Node closed the connection
  // without a word) in the Error shape; an Expect other than 100-continue (Node wrote a bare 417)
  // is ignored and the request answered as any other, as RFC 9110 allows.
  app.server.on(
    'connect',
    refuseConnect(() => app.log),
  );
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  // A request that asked to upgrade (Connection: Upgrade) is answered as plain HTTP and ends its
  // connection, whatever answers it (a route, or Fastify before routing): after one, Node's parser
  // no longer refuses the next request's oversized or malformed head on that connection, which then
  // waits for the request timeout (Node 20). Decided before the app's own listener answers.
  app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.upgrade !== undefined) response.shouldKeepAlive = false;
  });
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Callback hooks, not async ones: every request passes them, and an async hook costs a promise
  // and a turn of the microtask queue each (bench/instructions.ts).
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      closing
        ? new GatewayError('shutting_down')
        : lacksHost(request)
          ? new GatewayError('malformed_request', { message: NO_HOST })
          : undefined,
    );
  });
  // While closing, every answer (those in flight too) ends its connection, so no kept-alive
  // socket keeps the server open until the process manager's kill.
  // An answer given before the request was read whole (413 from Content-Length, a refusal from
  // the headers) ends its connection, and the rest of the body is read and discarded first: a
  // client that writes its whole body before reading would otherwise get a reset, not the answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    const unread = request.raw.complete === false;
    if (closing || unread) reply.header('connection', 'close');
    if (unread) drainUnreadBody(request.raw.socket, request.raw);
    done(null, payload);
  });

  await app.register(errorHandlingPlugin);
  const clock = options.clock ?? Date.now;
  if (options.refusalLimit) {
    registerRefusalLimit(app, {
      ...options.refusalLimit,
      redis: options.redis,
      clock: options.clock ?? Date.now,
      onError: (error) => app.log.warn({ err: error }, 'refusal limiter unavailable; requests let through'),
    });
  }
  const clockSkew = new ClockSkewTracker(
    (skew) =>
      app.log.warn(
        { ...skew },
        `clock skew of ${skew.smoothedSeconds} s on this connection (requests fail past 300 s): ask the merchant to fix the till's clock`,
      ),
    clock,
  );
  options.metrics?.watchClockSkew(clockSkew);
  // Each connection's last answer and last hour of requests (admin, console), as this process answered them.
  const activity = new ConnectionActivity(clock);
  options.metrics?.watchConnectionActivity(activity);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.connection) activity.record(request.connection.id, reply.statusCode, request.connection);
    done();
  });
  if (options.metrics) registerMetrics(app, { metrics: options.metrics, adminToken: options.admin?.token });
  if (options.journal) registerJournalHook(app, options.journal, clock);
  if (tracingOn()) registerTraceOutcome(app);
  await app.register(rateLimit, rateLimitOptions({ ...options.rateLimit, redis: options.redis, clock: options.clock ?? Date.now }));

  const pipeline =
    options.pipeline ?? createDoorPipeline({ engine: options.engine, cache: options.idempotency, log: app.log, metrics: options.metrics });
  // An operator's replay of a kept featured delivery goes through its own door again (app.inject), with a ticket.
  const replayTickets = createReplayTickets();
  const checkout: CheckoutRoutesOptions = {
    // Through a port that notes why a call failed (the journal's story), as the pipeline's own.
    engine: traceEngineFailures(options.engine),
    cache: options.idempotency,
    onCacheError: (error, operation) => app.log.warn({ err: error, operation }, 'idempotency cache unavailable; the ledger decides'),
    environment: options.environment ?? 'development',
    features: options.features ?? [],
    // Catalog pushes of featured vendors whose catalog the operator pulls are refused (needs the vendor registry).
    catalogPullerOf: options.featured ? catalogPullerOf(options.featured.store, options.featured.adapters) : undefined,
  };

  // Open routes: no credentials, or the route's own (a featured door's vendor scheme).
  registerHealth(app);
  registerReadiness(app, {
    ...(options.storePing ? { store: options.storePing } : {}),
    engine: () => options.engine.ping(),
  });
  registerOpenApi(app);
  if (options.directory) registerDirectory(app, options.directory);
  if (options.featured) registerFeaturedDoors(app, { ...options.featured, pipeline, clock, replayTickets });
  // What is off answers 404 endpoint_not_enabled before any credential is looked at.
  registerDisabledCheckoutRoutes(app, checkout);
  if (!options.journal) registerDeliveryLogOff(app);

  // The v1-signed routes: one scope whose hooks authenticate every request to them.
  await app.register(v1AuthScope, {
    connections: options.connections,
    clock,
    onAuthenticated: (connection, ts) => clockSkew.record(connection, ts),
    routes: (signed) => {
      registerGenericWebhook(signed, pipeline);
      // The vendor's windows (extensions of the partner API): a sale's preview through the same pipeline, and its own delivery log.
      registerEarnPreview(signed, pipeline, { max: options.rateLimit.preview });
      if (options.journal) registerDeliveryLog(signed, options.journal, { max: options.rateLimit.deliveryLog });
      registerCheckoutRoutes(signed, checkout);
    },
  });

  // The operator's API (one scope behind the admin bearer token) and its console (signed-in sessions).
  if (options.admin) registerAdminRoutes(app, { ...options.admin, clockSkew, activity, replayTickets });
  return app;
}
