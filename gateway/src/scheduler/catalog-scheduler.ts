import type { AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { VendorChanges } from '../featured/index.js';
import type { GatewayStore } from '../stores/index.js';
import type { CatalogRunner } from './catalog-runner.js';
import { catalogScheduleOf } from './catalog-schedule-of.js';
import { type CronJob, isValidCron, scheduleCron } from './cron-clock.js';

export interface CatalogSchedulerOptions {
  runner: CatalogRunner;
  adapters: readonly AnyAdapter[];
  logger: FastifyBaseLogger;
  /** Where each vendor's `catalogSchedule` override is read; without it, the adapters' defaults only. */
  store?: Pick<GatewayStore, 'getVendor'> | undefined;
  /** Provider settings changes: the schedules follow them without a restart. */
  changes?: VendorChanges | undefined;
}

export interface CatalogJob {
  vendor: string;
  schedule: string;
  source: 'settings' | 'adapter';
}

export interface CatalogScheduler {
  /** The schedules running now, e.g. [{ vendor: 'clover', schedule: '20 3 * * *', source: 'adapter' }]. */
  readonly jobs: ReadonlyArray<CatalogJob>;
  /** Re-read every vendor's schedule and replace the jobs whose schedule changed. */
  reschedule(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The slot of a tick: the scheduled instant to the second. Every process computes the same one,
 * so the run row's unique key (vendor, connection, slot) lets exactly one of them pull.
 */
export const slotOf = (tick: Date): string => new Date(Math.floor(tick.getTime() / 1000) * 1000).toISOString();

/**
 * One cron job (cron-clock.ts, on croner) per adapter that declares a catalog pull, on the vendor's schedule: the
 * provider setting `catalogSchedule` when the operator set one, else the adapter's default. A
 * settings change reschedules that vendor's job (no restart). A tick runs the vendor's active
 * connections only while the vendor is featured (checked at every tick, so a promotion or demotion
 * needs no restart). noOverlap: a tick still running skips the next one.
 */
export async function startCatalogScheduler(options: CatalogSchedulerOptions): Promise<CatalogScheduler> {
  const tasks = new Map<string, { job: CatalogJob; task: CronJob }>();
  const withCatalog = options.adapters.filter((a) => a.catalog?.schedule);
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();

  const tick = (vendor: string) => async (context: { date: Date }) => {
    const slot = slotOf(context.date);
    try {
      const runs = await options.runner.runTick(vendor, slot);
      if (runs.length > 0) options.logger.info({ vendor, slot, runs: runs.length }, 'catalog schedule tick done');
    } catch (error) {
      options.logger.error({ err: error, vendor, slot }, 'catalog schedule tick failed');
    }
  };

  /** The vendor's schedule now; when its settings cannot be read, the job it has (else the adapter's default). */
  async function jobOf(adapter: AnyAdapter): Promise<CatalogJob | null> {
    let settings: Record<string, unknown> | null | undefined = null;
    try {
      settings = options.store ? (await options.store.getVendor(adapter.slug))?.settings : null;
    } catch (error) {
      options.logger.error(
        { err: error, vendor: adapter.slug },
        'reading the catalog schedule override failed; the current schedule stays',
      );
      const current = tasks.get(adapter.slug);
      if (current) return current.job;
    }
    const effective = catalogScheduleOf(adapter, settings);
    return effective && { vendor: adapter.slug, ...effective };
  }

  async function apply(): Promise<void> {
    for (const adapter of withCatalog) {
      if (stopped) return;
      const job = await jobOf(adapter);
      const current = tasks.get(adapter.slug);
      if (current && job && current.job.schedule === job.schedule) {
        current.job = job; // the same schedule, perhaps now from the other source
        continue;
      }
      if (!job || !isValidCron(job.schedule)) {
        options.logger.error({ vendor: adapter.slug, schedule: job?.schedule }, 'invalid catalog schedule; this vendor is not pulled');
        continue;
      }
      await current?.task.destroy();
      const task = scheduleCron(job.schedule, tick(adapter.slug), {
        onError: (error) => options.logger.error({ err: error, vendor: adapter.slug }, 'catalog schedule tick failed'),
      });
      tasks.set(adapter.slug, { job, task });
      if (current)
        options.logger.info(
          { vendor: job.vendor, schedule: job.schedule, source: job.source, previous: current.job.schedule },
          'catalog schedule changed',
        );
    }
  }

  const reschedule = () => (queue = queue.then(apply, apply));
  // Subscribed first: a change seen while the first schedules are read runs them again.
  const unsubscribe = options.changes?.subscribe(reschedule);
  await reschedule();
  options.logger.info({ jobs: [...tasks.values()].map((t) => t.job) }, 'catalog scheduler started');
  return {
    get jobs() {
      return [...tasks.values()].map((t) => t.job);
    },
    reschedule,
    async stop() {
      stopped = true;
      unsubscribe?.();
      await queue.catch(() => undefined);
      for (const { task } of tasks.values()) await task.destroy();
      tasks.clear();
      await options.runner.stop();
    },
  };
}
