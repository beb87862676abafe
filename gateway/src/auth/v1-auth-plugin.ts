import { AUTH_HEADERS, type Connection, type ConnectionStore } from '@loyalty-gateway/core';
import type { FastifyInstance, onRequestAsyncHookHandler, preValidationHookHandler } from 'fastify';
import { inRequestSpan } from '../tracing/request-span.js';
import { assertFreshTimestamp, assertSignature, resolveConnection } from './authenticate-v1.js';
import '../http/fastify-types.js';

export interface V1AuthOptions {
  connections: ConnectionStore;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** Told the signed timestamp of every authenticated request (clock-skew telemetry). */
  onAuthenticated?: ((connection: Connection, timestampSeconds: number) => void) | undefined;
  /** Registers the v1-signed routes on the scope (every route registered there is authenticated). */
  routes: (signed: FastifyInstance) => void;
}

const EMPTY = Buffer.alloc(0);

/**
 * The v1-signed routes, in one encapsulated scope (registered without fastify-plugin) whose hooks
 * authenticate every request to a route in it; routes outside it (probes, the featured doors'
 * own schemes, the admin API's bearer token, the console's session) never meet these hooks.
 * Before the body is read (onRequest): connection from vendor + store headers, then the timestamp
 * window. After the raw body is buffered (preValidation) and before anything parses it: the
 * signature. A route handler in the scope therefore only ever runs with `request.connection` set
 * and verified. The scope inherits the app's hooks registered before it, so these run after them,
 * as hooks of the app's routes would.
 */
export async function v1AuthScope(scope: FastifyInstance, options: V1AuthOptions): Promise<void> {
  const { connections, clock } = options;

  const resolve: onRequestAsyncHookHandler = (request) =>
    inRequestSpan(request, 'auth connection', {}, async (span) => {
      // Set before the timestamp's check: a stale request is still the connection's (journal, activity).
      request.connection = await resolveConnection(request.headers, connections);
      span.set({ 'loyalty.vendor': request.connection.vendor, 'loyalty.connection_id': request.connection.id });
      assertFreshTimestamp(request.headers, Math.floor(clock() / 1000));
    });

  // Synchronous, so a callback hook: no promise per request (a refusal thrown here reaches
  // Fastify's error handler as a rejected async hook's would).
  const verify: preValidationHookHandler = (request, _reply, done) => {
    const body = Buffer.isBuffer(request.body) ? request.body : EMPTY;
    // The timestamp header passed the window check in onRequest.
    const timestamp = request.headers[AUTH_HEADERS.timestamp] as string;
    inRequestSpan(request, 'auth signature', {}, () => assertSignature(request.connection!, request.headers, timestamp, body));
    request.authenticated = true;
    options.onAuthenticated?.(request.connection!, Number(timestamp));
    done();
  };

  scope.addHook('onRequest', resolve);
  scope.addHook('preValidation', verify);
  options.routes(scope);
}
