import type { FastifyInstance } from 'fastify';
import './http/fastify-types.js';

/** GET /health: liveness only, no authentication, no rate limit; `ok` as text/plain. */
export function registerHealth(app: FastifyInstance): void {
  app.get('/health', { config: { rateLimit: false, probe: true } }, (_request, reply) => {
    reply.type('text/plain; charset=utf-8').send('ok');
  });
}
