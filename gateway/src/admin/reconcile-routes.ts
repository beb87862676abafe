import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { RunsQuery } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { connectionIdParam, readQuery } from './read-admin-body.js';

/**
 * Order reconciliation: the recorded runs (newest first; `recovered` counts the sales and refunds
 * the webhook never delivered) and a manual run of one connection, answered when it ends (200 with
 * the run, `status` succeeded or failed). 409 reconcile_not_available / reconcile_run_in_progress.
 */
export function registerReconcileRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  const reconciler = () => {
    if (!deps.reconciler) throw new GatewayError('not_found');
    return deps.reconciler;
  };

  scope.get('/reconcile-runs', ADMIN_ROUTE, async (request) => {
    const filter = readQuery(RunsQuery, request.query);
    return { runs: await reconciler().runs.list(filter) };
  });

  scope.post('/connections/:id/reconcile', ADMIN_ROUTE, async (request) => {
    const id = connectionIdParam(request.params);
    const run = await reconciler().runNow(id);
    request.log.info(
      { reconcileRun: run.id, connectionId: id, status: run.status, recovered: run.recovered },
      'manual reconciliation run finished',
    );
    return { run };
  });
}
