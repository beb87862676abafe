import { inSpan, type AnyAdapter, type HttpClient, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { CatalogRun, CatalogRunStore, ConnectionSummary, GatewayStore } from '../stores/index.js';
import { buildPullContext } from './build-pull-context.js';
import { CatalogPullError, pullAllPages, type PagePolicy, type PullProgress } from './pull-all-pages.js';
import { toCatalogItems } from './to-catalog-command.js';

export interface ExecuteDeps {
  store: GatewayStore;
  runs: CatalogRunStore;
  engine: LoyaltyEngine;
  http: HttpClient;
  logger: FastifyBaseLogger;
  now: () => Date;
  policy: PagePolicy;
  /** Aborted when the scheduler stops: the pull ends between pages (and syncs nothing). */
  signal: AbortSignal;
}

const MAX_ERROR_LENGTH = 1_000;

/**
 * One claimed run, to its end: pull every page, then ONE full-snapshot catalogSync, then record
 * the outcome on the run row. A pull that breaks anywhere syncs nothing (a partial snapshot would
 * deactivate every item it missed). Never throws: the outcome is the returned row.
 */
export function executeCatalogRun(
  run: CatalogRun,
  adapter: AnyAdapter,
  connection: ConnectionSummary,
  deps: ExecuteDeps,
): Promise<CatalogRun> {
  // A trace of its own when scheduled: its vendor calls and the engine's catalogSync.
  const attributes = { 'loyalty.vendor': run.vendor, 'loyalty.connection_id': run.connectionId, 'loyalty.trigger': run.trigger };
  return inSpan('catalog pull', attributes, async (span) => {
    const done = await executeOnce(run, adapter, connection, deps);
    span.set({ 'loyalty.outcome': done.status });
    return done;
  });
}

async function executeOnce(run: CatalogRun, adapter: AnyAdapter, connection: ConnectionSummary, deps: ExecuteDeps): Promise<CatalogRun> {
  const log = deps.logger.child({ catalogRun: run.id, vendor: run.vendor, connectionId: run.connectionId, trigger: run.trigger });
  let progress: PullProgress = { pages: 0, items: 0, attempts: 0 };
  try {
    const catalog = adapter.catalog;
    if (!catalog) throw new Error(`the ${adapter.slug} adapter declares no catalog pull`);
    const ctx = await buildPullContext(adapter, connection, { store: deps.store, http: deps.http, logger: log, now: deps.now });
    const pulled = await pullAllPages(catalog.pull, ctx, deps.policy, async (p) => {
      progress = p;
      if (deps.signal.aborted) throw new Error('the gateway is shutting down');
      await deps.runs.progress(run.id, p);
    });
    progress = pulled.progress;
    const result = await deps.engine.catalogSync({
      merchantId: connection.merchantId,
      outletId: connection.outletId,
      source: { vendor: connection.vendor, storeId: connection.storeId },
      items: toCatalogItems(pulled.items),
    });
    const done = await deps.runs.finish(run.id, {
      status: 'succeeded',
      ...progress,
      created: result.itemsCreated,
      updated: result.itemsUpdated,
      deactivated: result.itemsDeactivated,
    });
    log.info(
      { pages: done.pages, items: done.items, created: done.created, updated: done.updated, deactivated: done.deactivated },
      'catalog pull succeeded',
    );
    return done;
  } catch (error) {
    if (error instanceof CatalogPullError) progress = { ...error.progress };
    const message = (error as Error).message.slice(0, MAX_ERROR_LENGTH);
    log.warn({ err: error, ...progress }, 'catalog pull failed; nothing was synced');
    try {
      return await deps.runs.finish(run.id, { status: 'failed', error: message, ...progress });
    } catch (recordError) {
      // The run store itself failed (database gone): still resolve, or `done` would be an
      // unhandled rejection (the manual trigger does not await it). The row stays `running`
      // until it is taken over as abandoned.
      log.error({ err: recordError, ...progress }, 'catalog pull outcome could not be recorded');
      return { ...run, ...progress, status: 'failed', error: message, finishedAt: deps.now() };
    }
  }
}
