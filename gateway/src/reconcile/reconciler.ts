import { GatewayError, type AnyAdapter, type HttpClient, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import { type CronJob, isValidCron, scheduleCron, slotOf } from '../scheduler/index.js';
import type { GatewayStore } from '../stores/index.js';
import type { WebhookPipeline } from '../webhooks/webhook-pipeline.js';
import type { ReconcileRun, ReconcileRunStore } from './reconcile-run-store.js';
import { runReconcile } from './run-reconcile.js';

export interface ReconcilerOptions {
  store: GatewayStore;
  runs: ReconcileRunStore;
  pipeline: WebhookPipeline;
  http: HttpClient;
  /** The ledger's recently reversed orders (adapters declaring `reconcile.revisitDays` read them back). */
  reversedOrders?: LoyaltyEngine['reversedOrders'] | undefined;
  adapters: readonly AnyAdapter[];
  logger: FastifyBaseLogger;
  now?: () => Date;
  /** Told of every finished run (the metrics). */
  onFinished?: ((run: ReconcileRun) => void) | undefined;
}

export interface Reconciler {
  runs: ReconcileRunStore;
  /** One run of a connection now (admin): refused with 404/409 GatewayErrors when it cannot run. */
  runNow(connectionId: string): Promise<ReconcileRun>;
  /** A schedule tick of a vendor: every active connection, one process per slot. */
  runTick(vendor: string, slot: string): Promise<ReconcileRun[]>;
  /** Start one cron job per adapter declaring `reconcile.schedule` (GATEWAY_SCHEDULER=on). */
  schedule(): void;
  readonly jobs: ReadonlyArray<{ vendor: string; schedule: string }>;
  /** Stop the jobs and wait for the runs in progress. */
  stop(): Promise<void>;
}

/**
 * Order reconciliation for every adapter that declares a `reconcile` pull: the cron schedule
 * (the adapter's `reconcile.schedule`) and manual runs from /admin. Only featured vendors' active
 * connections run; a vendor's tier is read at every tick, so a promotion needs no restart.
 */
export function createReconciler(options: ReconcilerOptions): Reconciler {
  const now = options.now ?? (() => new Date());
  const tasks: Array<{ vendor: string; schedule: string; task: CronJob }> = [];
  const running = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const adapterOf = (slug: string) => options.adapters.find((a) => a.slug === slug && a.reconcile);
  const deps = {
    store: options.store,
    runs: options.runs,
    pipeline: options.pipeline,
    http: options.http,
    reversedOrders: options.reversedOrders,
    logger: options.logger,
    now,
  };

  const finished = (run: ReconcileRun | null) => {
    if (run && run.status !== 'running') options.onFinished?.(run);
    return run;
  };

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  async function runTick(vendor: string, slot: string): Promise<ReconcileRun[]> {
    const adapter = adapterOf(vendor);
    if (!adapter || (await options.store.getVendor(vendor))?.tier !== 'featured') return [];
    const done: ReconcileRun[] = [];
    for (const connection of await options.store.listConnections({ vendor })) {
      if (stopped) break;
      if (!connection.active || running.has(connection.id)) continue;
      running.add(connection.id);
      try {
        const run = finished(await runReconcile(adapter, connection, deps, { kind: 'schedule', slot }));
        if (run) done.push(run);
      } catch (error) {
        options.logger.error({ err: error, vendor, connectionId: connection.id, slot }, 'reconciliation run could not start');
      } finally {
        running.delete(connection.id);
      }
    }
    return done;
  }

  return {
    runs: options.runs,
    async runNow(connectionId) {
      if (stopped) throw new GatewayError('reconcile_not_available', { message: 'The gateway is shutting down.' });
      const connection = await options.store.getConnection(connectionId);
      if (!connection) throw new GatewayError('connection_not_found');
      const adapter = adapterOf(connection.vendor);
      if (!adapter)
        throw new GatewayError('reconcile_not_available', {
          message: `No registered adapter for ${connection.vendor} declares a reconciliation pull.`,
        });
      if ((await options.store.getVendor(connection.vendor))?.tier !== 'featured') {
        throw new GatewayError('reconcile_not_available', { message: `${connection.vendor} is not featured; promote it first.` });
      }
      if (!connection.active)
        throw new GatewayError('reconcile_not_available', { message: 'This connection is deactivated; activate it first.' });
      if (running.has(connectionId)) throw new GatewayError('reconcile_run_in_progress');
      running.add(connectionId);
      try {
        const run = finished(await track(runReconcile(adapter, connection, deps, { kind: 'manual' })));
        if (!run) throw new GatewayError('reconcile_run_in_progress');
        return run;
      } finally {
        running.delete(connectionId);
      }
    },
    runTick,
    schedule() {
      for (const adapter of options.adapters) {
        const schedule = adapter.reconcile?.schedule;
        if (!schedule) continue;
        if (!isValidCron(schedule)) {
          options.logger.error({ vendor: adapter.slug, schedule }, 'invalid reconciliation schedule; this vendor is not reconciled');
          continue;
        }
        const task = scheduleCron(
          schedule,
          async (context: { date: Date }) => {
            const slot = slotOf(context.date);
            try {
              const runs = await track(runTick(adapter.slug, slot));
              if (runs.length > 0) options.logger.info({ vendor: adapter.slug, slot, runs: runs.length }, 'reconciliation tick done');
            } catch (error) {
              options.logger.error({ err: error, vendor: adapter.slug, slot }, 'reconciliation tick failed');
            }
          },
          {
            onError: (error) => options.logger.error({ err: error, vendor: adapter.slug }, 'reconciliation tick failed'),
          },
        );
        tasks.push({ vendor: adapter.slug, schedule, task });
      }
      options.logger.info({ jobs: tasks.map(({ vendor, schedule }) => ({ vendor, schedule })) }, 'reconciliation scheduler started');
    },
    get jobs() {
      return tasks.map(({ vendor, schedule }) => ({ vendor, schedule }));
    },
    async stop() {
      stopped = true;
      for (const { task } of tasks.splice(0)) await task.destroy();
      await Promise.allSettled([...inFlight]);
    },
  };
}
