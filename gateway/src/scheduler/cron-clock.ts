import { Cron, type CronOptions } from 'croner';

/**
 * The gateway's cron schedules (catalog pulls, order reconciliation), on croner: it reads each
 * expression, computes its next runs with `Date`'s calendar in the process's time zone (no `Intl`
 * without a `timezone` option, so ICU's data stays out of memory, docs/benchmarks.md) and arms the
 * timer. The options below keep the meaning node-cron gave stored expressions: a day must match
 * both day fields, five fields or six with leading seconds. Summer time follows croner's rules
 * (Vixie cron's): a fixed time (one value in each of second, minute and hour) that does not exist
 * runs when the gap ends, one that happens twice runs at its first occurrence; an expression with a
 * wildcard, step, range or list there skips the missing times and runs in both repeated ones.
 */
const EXPRESSION_OPTIONS: CronOptions = { domAndDow: true, mode: '5-or-6-parts' };

export interface CronJob {
  /** The next run this job is armed for (null once destroyed, or when the expression never matches again). */
  nextRun(): Date | null;
  /** Stop the job. A run in progress finishes on its own. */
  destroy(): Promise<void>;
}

export interface CronJobOptions {
  /** A run that threw or rejected (the run's own error handling should come first). */
  onError(error: unknown): void;
}

/** One run: `date` is the scheduled instant (to the second), the same on every process. */
export type CronRun = (context: { date: Date }) => Promise<void> | void;

/** Why croner refuses `expression` (its message), or null when it is a schedule the gateway runs. */
export function cronProblem(expression: string): string | null {
  try {
    new Cron(expression, { ...EXPRESSION_OPTIONS, paused: true });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Whether `expression` is a schedule the gateway runs. */
export const isValidCron = (expression: string): boolean => cronProblem(expression) === null;

/** The first instant after `after` that `expression` matches (croner's next run), or null when it never does again. Throws on an invalid expression. */
export function nextRunOf(expression: string, after: Date): Date | null {
  return new Cron(expression, { ...EXPRESSION_OPTIONS, paused: true }).nextRun(after);
}

/**
 * Run `run` at every instant `expression` matches, one run at a time: an instant that comes while
 * the previous run is still going is skipped (croner's `protect`). A timer that fires early (the
 * wall clock set back) waits; one that fires late runs once, with the latest instant it missed.
 */
export function scheduleCron(expression: string, run: CronRun, options: CronJobOptions): CronJob {
  const job = new Cron(expression, { ...EXPRESSION_OPTIONS, protect: true, catch: (error) => options.onError(error) }, async (self) => {
    // croner hands the run the time it fired; the slot is the scheduled instant at or before it.
    const date = self.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date(Math.floor(Date.now() / 1000) * 1000);
    await run({ date });
  });
  return {
    nextRun: () => job.nextRun(),
    destroy: async () => job.stop(),
  };
}
