import type { FastifyInstance } from 'fastify';
import '../http/fastify-types.js';
import { openApiDocument } from './openapi-document.js';

export const OPENAPI_PATH = '/openapi.json';

/** GET /openapi.json: the partner API's OpenAPI 3.1 document (public, like the spec it renders). */
export function registerOpenApi(app: FastifyInstance): void {
  const body = JSON.stringify(openApiDocument());
  app.get(OPENAPI_PATH, { config: { rateLimit: false } }, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  });
}
