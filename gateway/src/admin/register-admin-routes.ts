import type { FastifyInstance } from 'fastify';
import { adapters as registeredAdapters } from '../adapters.js';
import { adminAuth } from './admin-auth.js';
import type { AdminDeps, AdminOptions } from './admin-types.js';
import { registerCatalogRunRoutes } from './catalog-run-routes.js';
import { registerConnectionRoutes } from './connection-routes.js';
import { registerMerchantRoutes } from './merchant-routes.js';
import { registerReconcileRoutes } from './reconcile-routes.js';
import { registerDeliveryRoutes } from './delivery-routes.js';
import { registerVendorRoutes } from './vendor-routes.js';
import { registerAdapterPreviewRoutes } from './adapter-preview-routes.js';
import { followVendorChange } from './follow-vendor-change.js';
import { registerConsole } from '../console/index.js';
import { REPLAY_HEADER } from '../journal/index.js';

/**
 * The operator's API under /admin, in its own scope: bearer-token auth on every route (v1 auth and
 * the per-connection rate limit are off). Without a token nothing is mounted, so every /admin path
 * answers 404 not_found (the config refuses to start production without one). The operator
 * console (/console) is mounted beside it, under the same condition.
 */
export function registerAdminRoutes(app: FastifyInstance, options: AdminOptions): void {
  const token = options.token;
  if (!token) return;
  const adapters = options.adapters ?? registeredAdapters;
  const tickets = options.replayTickets;
  const deps: AdminDeps = {
    store: options.store,
    engine: options.engine,
    notes: options.notes,
    runs: options.runs,
    runner: options.runner,
    reconciler: options.reconciler,
    subscriptions: options.subscriptions,
    journal: options.journal,
    replayPipeline: options.replayPipeline,
    previewPipeline: options.previewPipeline,
    outbound: options.outbound,
    publicUrl: options.publicUrl,
    replayThroughDoor: tickets
      ? (request, ticket) => app.inject({ ...request, headers: { ...request.headers, [REPLAY_HEADER]: tickets.issue(ticket) } })
      : undefined,
    adapters,
    adapterOf: (slug) => adapters.find((a) => a.slug === slug),
    now: options.clock ?? (() => new Date()),
    tlsListener: options.tlsListener,
    clockSkew: options.clockSkew,
    activity: options.activity,
    engineSeed: options.engineSeed,
    vendorChanged: () => followVendorChange(options.onVendorChanged, app.log, options.vendorChangeWaitMs),
  };
  void app.register(
    async (scope) => {
      scope.addHook('onRequest', adminAuth(token));
      registerVendorRoutes(scope, deps);
      registerConnectionRoutes(scope, deps);
      registerCatalogRunRoutes(scope, deps);
      registerMerchantRoutes(scope, deps);
      registerReconcileRoutes(scope, deps);
      registerDeliveryRoutes(scope, deps);
      registerAdapterPreviewRoutes(scope, deps);
    },
    { prefix: '/admin' },
  );
  // The operator console: the same building blocks as HTML pages, signed in with the same token.
  registerConsole(app, { ...deps, token, sessions: options.consoleSessions });
}
