import type { AnyAdapter } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import cron, { type ScheduledTask } from 'node-cron';
import type { CatalogRunner } from './catalog-runner.js';

export interface CatalogSchedulerOptions {
  runner: CatalogRunner;
  adapters: readonly AnyAdapter[];
  logger: FastifyBaseLogger;
  /** IANA time zone of the schedules; the process's own by default. */
  timezone?: string;
}

export interface CatalogScheduler {
  /** The schedules registered, e.g. [{ vendor: 'clover', schedule: '20 3 * * *' }]. */
  readonly jobs: ReadonlyArray<{ vendor: string; schedule: string }>;
  stop(): Promise<void>;
}

/**
 * The slot of a tick: the scheduled instant to the second. Every process computes the same one,
 * so the run row's unique key (vendor, connection, slot) lets exactly one of them pull.
 */
export const slotOf = (tick: Date): string => new Date(Math.floor(tick.getTime() / 1000) * 1000).toISOString();

/**
 * One node-cron job per adapter that declares a catalog pull, on its own schedule. A tick runs
 * the vendor's active connections only while the vendor is featured (checked at every tick, so a
 * promotion or demotion needs no restart). noOverlap: a tick still running skips the next one.
 */
export function startCatalogScheduler(options: CatalogSchedulerOptions): CatalogScheduler {
  const tasks: ScheduledTask[] = [];
  const jobs: Array<{ vendor: string; schedule: string }> = [];
  for (const adapter of options.adapters) {
    const schedule = adapter.catalog?.schedule;
    if (!schedule) continue;
    if (!cron.validate(schedule)) {
      options.logger.error({ vendor: adapter.slug, schedule }, 'invalid catalog schedule; this vendor is not pulled');
      continue;
    }
    const task = cron.schedule(
      schedule,
      async (context) => {
        const slot = slotOf(context.date);
        try {
          const runs = await options.runner.runTick(adapter.slug, slot);
          if (runs.length > 0) options.logger.info({ vendor: adapter.slug, slot, runs: runs.length }, 'catalog schedule tick done');
        } catch (error) {
          options.logger.error({ err: error, vendor: adapter.slug, slot }, 'catalog schedule tick failed');
        }
      },
      { name: `catalog:${adapter.slug}`, noOverlap: true, ...(options.timezone ? { timezone: options.timezone } : {}) },
    );
    tasks.push(task);
    jobs.push({ vendor: adapter.slug, schedule });
  }
  options.logger.info({ jobs }, 'catalog scheduler started');
  return {
    jobs,
    async stop() {
      for (const task of tasks.splice(0)) await task.destroy();
      await options.runner.stop();
    },
  };
}
