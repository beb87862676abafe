import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AllowedMethods } from './allowed-methods.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { sendError } from './send-error.js';
import './fastify-types.js';

/**
 * One error handler and one not-found handler for the whole app: every failure, ours or
 * Fastify's, is the spec's Error body, and every response carries X-Request-ID. An unknown method
 * on a known path is a 405 with Allow; an unknown path a 404.
 */
async function errorHandling(app: FastifyInstance): Promise<void> {
  const allowed = new AllowedMethods();
  app.decorateRequest('connection', null);
  app.decorateRequest('authenticated', false);
  app.decorateRequest('audit', null);
  app.decorateRequest('replay', null);
  app.decorateRequest('routeSeen', null);

  app.addHook('onRoute', (route) => allowed.add(route.url, route.method));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const methods = allowed.for(request.url);
    if (methods.length === 0) return sendError(new GatewayError('not_found'), request, reply);
    return sendError(new GatewayError('method_not_allowed', { headers: { allow: methods.join(', ') } }), request, reply);
  });
}

export const errorHandlingPlugin = fp(errorHandling, { name: 'gateway-errors', fastify: '5.x' });
