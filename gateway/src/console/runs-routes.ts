import type { FastifyInstance } from 'fastify';
import type { AdminDeps } from '../admin/admin-types.js';
import { CONSOLE_ROUTE, PAGE_SIZE, type ConsoleKit } from './console-kit.js';
import { renderRuns } from './console-pages.js';

/** The catalog pulls' and reconciliation's recent runs. */
export function registerRunsPage(scope: FastifyInstance, deps: AdminDeps, kit: Pick<ConsoleKit, 'current' | 'takeFlash' | 'send'>): void {
  const { current, takeFlash, send } = kit;
  scope.get('/runs', CONSOLE_ROUTE, async (request, reply) => {
    const session = current(request);
    const [catalogRuns, reconcileRuns] = await Promise.all([
      deps.runs.list({ limit: PAGE_SIZE }),
      deps.reconciler ? deps.reconciler.runs.list({ limit: PAGE_SIZE }) : null,
    ]);
    return send(reply, 200, renderRuns({ session, message: takeFlash(session), catalogRuns, reconcileRuns }));
  });
}
