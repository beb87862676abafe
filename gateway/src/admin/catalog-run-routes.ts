import type { FastifyInstance } from 'fastify';
import { RunsQuery, TriggerRunBody } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { readQuery } from './read-admin-body.js';
import { readJsonBody } from '../webhooks/read-envelope.js';

/**
 * Catalog pull runs: the recorded outcomes (newest first), and a manual trigger that answers 202
 * with the run as it starts (`status: running`); the pull goes on in the background and its row
 * says how it ended. 409 catalog_run_in_progress while another run of the connection is running.
 */
export function registerCatalogRunRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/catalog-runs', ADMIN_ROUTE, async (request) => {
    const filter = readQuery(RunsQuery, request.query);
    return { runs: await deps.runs.list(filter) };
  });

  scope.post('/catalog-runs', ADMIN_ROUTE, async (request, reply) => {
    const body = readJsonBody(TriggerRunBody, request.body);
    const started = await deps.runner.start(body.vendor, body.connectionId, 'manual');
    request.log.info({ catalogRun: started?.run.id, vendor: body.vendor, connectionId: body.connectionId }, 'manual catalog pull started');
    return reply
      .code(202)
      .header('location', `/admin/catalog-runs?connectionId=${encodeURIComponent(body.connectionId)}`)
      .send({ run: started?.run });
  });
}
