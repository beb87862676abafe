import {
  FeaturedEnvelope,
  GatewayError,
  inSpan,
  formatPath,
  PULL,
  type AnyAdapter,
  type Connection,
  type HttpClient,
  type LoyaltyEngine,
  type ReconcileWindow,
} from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import { buildPullContext } from '../scheduler/build-pull-context.js';
import type { ConnectionSummary, GatewayStore } from '../stores/index.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { ReconcileCounts, ReconcileRun, ReconcileRunStore } from './reconcile-run-store.js';

/** Each window starts this long before the last one ended: orders updated at the boundary are looked at twice (harmless: the ledger dedupes). */
export const RECONCILE_OVERLAP_MS = 10 * 60 * 1000;
/** Pages one run reads at most (a runaway cursor ends the run as failed; the checkpoint stays). */
const MAX_PAGES = PULL.reconcileMaxPages;

export interface ReconcileDeps {
  store: GatewayStore;
  runs: ReconcileRunStore;
  /** The earn webhook's own pipeline: idempotency cache, then the ledger. */
  pipeline: WebhookPipeline;
  http: HttpClient;
  logger: FastifyBaseLogger;
  now: () => Date;
  /** The ledger's recently reversed orders, for adapters declaring `reconcile.revisitDays`. */
  reversedOrders?: LoyaltyEngine['reversedOrders'] | undefined;
}

/** Orders read back per run at most (one vendor call of a page's size). */
export const REVISIT_MAX = 100;

/** The orders this run reads back whatever their modification time (see AdapterSpec.reconcile.revisitDays). */
async function revisitOf(adapter: AnyAdapter, connection: ConnectionSummary, deps: ReconcileDeps): Promise<readonly string[] | undefined> {
  const days = adapter.reconcile?.revisitDays;
  if (!days || !deps.reversedOrders) return undefined;
  const since = new Date(deps.now().getTime() - days * 24 * 60 * 60 * 1000).toISOString();
  return deps.reversedOrders({ source: { vendor: connection.vendor, storeId: connection.storeId }, since, limit: REVISIT_MAX });
}

/** The window a connection's next run covers: from its checkpoint (less the overlap), else from its creation. */
export async function reconcileWindow(
  runs: ReconcileRunStore,
  connection: ConnectionSummary,
  now: Date,
): Promise<{ since: Date; until: Date }> {
  const checkpoint = await runs.checkpoint(connection.id);
  const since = checkpoint ? new Date(checkpoint.getTime() - RECONCILE_OVERLAP_MS) : connection.createdAt;
  return { since, until: now };
}

/**
 * One reconciliation run of one connection: claim it, list the orders and refunds the vendor
 * changed in the window page by page (each page one vendor call under the pull policy: its retries
 * are the HttpClient's, none on top; a failed run is pulled again at the next slot) (the adapter maps each with its own webhook mapping), submit
 * every envelope through the same exactly-once pipeline as the webhook (a sale it delivered is a
 * duplicate; one it missed is earned now), record the counts. The checkpoint advances only when
 * the run succeeded with nothing failed, so a failed order is looked at again next time.
 * Returns null when another process claimed this slot. Never throws after claiming.
 */
export function runReconcile(
  adapter: AnyAdapter,
  connection: ConnectionSummary,
  deps: ReconcileDeps,
  trigger: { kind: 'schedule'; slot: string } | { kind: 'manual' },
): Promise<ReconcileRun | null> {
  // A trace of its own when scheduled (a span of the admin request's when asked for): its vendor calls and what it hands to the pipeline.
  const attributes = { 'loyalty.vendor': connection.vendor, 'loyalty.connection_id': connection.id, 'loyalty.trigger': trigger.kind };
  return inSpan('reconcile run', attributes, async (span) => {
    const run = await reconcileOnce(adapter, connection, deps, trigger);
    span.set({ 'loyalty.outcome': run?.status ?? 'claimed elsewhere' });
    return run;
  });
}

async function reconcileOnce(
  adapter: AnyAdapter,
  connection: ConnectionSummary,
  deps: ReconcileDeps,
  trigger: { kind: 'schedule'; slot: string } | { kind: 'manual' },
): Promise<ReconcileRun | null> {
  const reconcile = adapter.reconcile;
  if (!reconcile) throw new Error(`the ${adapter.slug} adapter declares no reconciliation pull`);
  const window = await reconcileWindow(deps.runs, connection, deps.now());
  const run = await deps.runs.claim({
    vendor: connection.vendor,
    connectionId: connection.id,
    trigger: trigger.kind,
    ...(trigger.kind === 'schedule' ? { slot: trigger.slot } : {}),
    ...window,
  });
  if (!run) return null;
  const log = deps.logger.child({ reconcileRun: run.id, vendor: connection.vendor, connectionId: connection.id });
  const counts: ReconcileCounts = { pages: 0, found: 0, recovered: 0, duplicates: 0, failed: 0 };
  try {
    const full = await deps.store.find(connection.vendor, connection.storeId);
    if (!full?.active) throw new Error('the connection is not active');
    const canonical: Connection = full;
    const ctx = await buildPullContext(adapter, connection, { store: deps.store, http: deps.http, logger: log, now: deps.now });
    const revisit = await revisitOf(adapter, connection, deps);
    const pulled: ReconcileWindow = revisit && revisit.length > 0 ? { ...window, revisit } : window;
    let cursor: string | null = null;
    do {
      if (counts.pages >= MAX_PAGES) throw new Error(`more than ${MAX_PAGES} pages: the run stops (the checkpoint stays)`);
      const page = await reconcile.pull(ctx, pulled, cursor);
      counts.pages += 1;
      counts.found += page.examined ?? page.envelopes.length + (page.failures?.length ?? 0);
      for (const failure of page.failures ?? []) {
        counts.failed += 1;
        log.warn({ order: failure.id, reason: failure.reason }, 'reconciliation: an order could not be mapped');
      }
      for (const candidate of page.envelopes) {
        const parsed = FeaturedEnvelope.safeParse(candidate);
        if (!parsed.success || parsed.data.store.id !== canonical.storeId) {
          counts.failed += 1;
          const fields = parsed.success
            ? [`store.id ${parsed.data.store.id}`]
            : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
          log.error({ fields }, `reconciliation: the ${adapter.slug} adapter produced an invalid envelope`);
          continue;
        }
        try {
          const result = await deps.pipeline(canonical, parsed.data, { raise: adapter.paidOrdersGrow === true, featured: true });
          if (result.status === 'processed') counts.recovered += 1;
          // A list of reversals the ledger already matched is no event of its own: not counted.
          else if (result.status === 'duplicate' && parsed.data.eventType !== 'refunds.listed') counts.duplicates += 1;
        } catch (error) {
          // A refusal of the ledger (refund_id_reused, currency_mismatch) is the same on every run, as on
          // the featured door, which answers it 200: counted as found, logged, and the run goes on. Only
          // a failure to apply (5xx: the engine unreachable) fails the run, so its window is pulled again.
          const refused = error instanceof GatewayError && error.statusCode < 500;
          if (!refused) counts.failed += 1;
          log.warn(
            {
              err: error,
              eventType: parsed.data.eventType,
              transactionId: parsed.data.transaction.id,
              ...(refused ? { code: error.code } : {}),
            },
            refused
              ? 'reconciliation: the ledger refused an event; not applied (the same on every run), the run goes on'
              : 'reconciliation: an envelope could not be applied',
          );
        }
      }
      cursor = page.cursor;
    } while (cursor !== null);
    const status = counts.failed === 0 ? 'succeeded' : 'failed';
    const done = await deps.runs.finish(run.id, {
      ...counts,
      status,
      error: status === 'failed' ? `${counts.failed} order(s) or event(s) failed; the window is pulled again next time` : null,
    });
    (counts.recovered > 0 ? log.warn.bind(log) : log.info.bind(log))(
      { ...counts },
      counts.recovered > 0 ? 'reconciliation recovered events the webhook never delivered' : 'reconciliation run finished',
    );
    return done;
  } catch (error) {
    log.warn({ err: error, ...counts }, 'reconciliation run failed; the checkpoint stays');
    return deps.runs
      .finish(run.id, { ...counts, status: 'failed', error: (error as Error).message.slice(0, 1_000) })
      .catch(() => ({ ...run, ...counts, status: 'failed' as const, error: (error as Error).message }));
  }
}
