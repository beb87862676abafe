import { createHttpClient, GatewayError, type AnyAdapter, type HttpClient, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { CatalogRun, CatalogRunStore, CatalogRunTrigger, GatewayStore } from '../stores/index.js';
import { executeCatalogRun } from './execute-catalog-run.js';
import { DEFAULT_PAGE_POLICY, type PagePolicy } from './pull-all-pages.js';

export interface CatalogRunnerOptions {
  store: GatewayStore;
  runs: CatalogRunStore;
  engine: LoyaltyEngine;
  adapters: readonly AnyAdapter[];
  logger: FastifyBaseLogger;
  /** Default: createHttpClient(), the VENDOR_CALL budget: each page's one budget. */
  http?: HttpClient;
  now?: () => Date;
  policy?: Partial<PagePolicy>;
  /** Told of every finished pull (the process's metrics). */
  onFinished?: (run: CatalogRun) => void;
}

export interface StartedRun {
  run: CatalogRun;
  /** Resolves with the finished row (never rejects). */
  done: Promise<CatalogRun>;
}

export interface CatalogRunner {
  /**
   * Check, claim and start one connection's pull. Manual: throws GatewayError (vendor_not_found,
   * connection_not_found, catalog_not_available, catalog_run_in_progress). Schedule: returns null
   * when another process holds the slot or a run is in progress.
   */
  start(vendor: string, connectionId: string, trigger: CatalogRunTrigger, slot?: string): Promise<StartedRun | null>;
  /** Start and wait for the end (by hand, tests, the CLI's `--wait`). */
  runCatalogPull(vendor: string, connectionId: string, trigger?: CatalogRunTrigger): Promise<CatalogRun>;
  /** One schedule tick of a vendor: every active connection, one after the other. */
  runTick(vendor: string, slot: string): Promise<CatalogRun[]>;
  /** End running pulls between pages (recorded failed), wait for them. */
  stop(): Promise<void>;
}

export function createCatalogRunner(options: CatalogRunnerOptions): CatalogRunner {
  const now = options.now ?? (() => new Date());
  const http = options.http ?? createHttpClient();
  const controller = new AbortController();
  const inFlight = new Set<Promise<CatalogRun>>();
  const policy: PagePolicy = { ...DEFAULT_PAGE_POLICY, ...options.policy };
  const adapterOf = (slug: string) => options.adapters.find((a) => a.slug === slug && a.catalog);

  async function start(vendorSlug: string, connectionId: string, trigger: CatalogRunTrigger, slot?: string): Promise<StartedRun | null> {
    const manual = trigger === 'manual';
    const refuse = (error: GatewayError) => {
      if (manual) throw error;
      return null;
    };
    if (controller.signal.aborted) return refuse(new GatewayError('catalog_not_available', { message: 'The gateway is shutting down.' }));
    const vendor = await options.store.getVendor(vendorSlug);
    if (!vendor) return refuse(new GatewayError('vendor_not_found'));
    const connection = await options.store.getConnection(connectionId);
    if (!connection || connection.vendor !== vendorSlug) return refuse(new GatewayError('connection_not_found'));
    const adapter = adapterOf(vendorSlug);
    if (!adapter)
      return refuse(
        new GatewayError('catalog_not_available', { message: `No registered adapter for ${vendorSlug} declares a catalog pull.` }),
      );
    if (vendor.tier !== 'featured')
      return refuse(new GatewayError('catalog_not_available', { message: `${vendorSlug} is not featured; promote it first.` }));
    if (!connection.active)
      return refuse(new GatewayError('catalog_not_available', { message: 'This connection is deactivated; activate it first.' }));

    const claim = await options.runs.claim({ vendor: vendorSlug, connectionId, trigger, ...(slot === undefined ? {} : { slot }) });
    if (!claim.claimed) {
      if (!manual)
        options.logger.info({ vendor: vendorSlug, connectionId, slot, reason: claim.reason }, 'catalog pull skipped: already claimed');
      return refuse(new GatewayError('catalog_run_in_progress'));
    }
    const done = executeCatalogRun(claim.run, adapter, connection, {
      store: options.store,
      runs: options.runs,
      engine: options.engine,
      http,
      logger: options.logger,
      now,
      policy,
      signal: controller.signal,
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    if (options.onFinished) void done.then(options.onFinished, () => {});
    return { run: claim.run, done };
  }

  return {
    start,
    async runCatalogPull(vendor, connectionId, trigger = 'manual') {
      const started = await start(vendor, connectionId, trigger, trigger === 'schedule' ? now().toISOString() : undefined);
      if (!started) throw new GatewayError('catalog_run_in_progress');
      return started.done;
    },
    async runTick(vendor, slot) {
      const finished: CatalogRun[] = [];
      const current = await options.store.getVendor(vendor);
      if (current?.tier !== 'featured' || !adapterOf(vendor)) return finished;
      for (const connection of await options.store.listConnections({ vendor })) {
        if (!connection.active || controller.signal.aborted) continue;
        try {
          const started = await start(vendor, connection.id, 'schedule', slot);
          if (started) finished.push(await started.done);
        } catch (error) {
          options.logger.error({ err: error, vendor, connectionId: connection.id, slot }, 'catalog pull could not start');
        }
      }
      return finished;
    },
    async stop() {
      controller.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
