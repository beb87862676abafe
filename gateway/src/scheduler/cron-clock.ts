import cron from 'node-cron';

/**
 * The gateway's cron schedules (catalog pulls, order reconciliation): node-cron reads and validates
 * each expression (`cron.parse`: its syntax, names, ranges, steps and nicknames), and this clock
 * arms one timer for the next run, computed with `Date`'s own calendar in the process's time zone.
 *
 * Why not node-cron's scheduler: it computes every date through `Intl.DateTimeFormat`, even
 * without a time zone, and the first call makes ICU's data resident. Measured through the
 * production start under load: 8–9 MiB of the process's RSS (the node binary's pages and ICU's
 * objects), for schedules that fire a few times a day (docs/benchmarks.md). Expressions whose day
 * fields use node-cron's calendar tokens (`L`, `15W`, `L-2`, `1#2`, `5L`) are still scheduled by
 * node-cron, which alone computes them; none of the adapters' defaults does.
 */
export interface CronJob {
  /** The next run this job is armed for (null once destroyed, or when the expression never matches again). */
  nextRun(): Date | null;
  /** Stop the job. A run in progress finishes on its own. */
  destroy(): Promise<void>;
}

export interface CronJobOptions {
  /** For node-cron's logs when it schedules the job (calendar tokens). */
  name: string;
  /** A run that threw or rejected (the run's own error handling should come first). */
  onError(error: unknown): void;
}

/** One run: `date` is the scheduled instant (to the second), the same on every process. */
export type CronRun = (context: { date: Date }) => Promise<void> | void;

/** node-cron's parse of an expression whose fields are all plain numbers (day of week 0–6, Sunday 0). */
export interface NumericCronFields {
  second: readonly number[];
  minute: readonly number[];
  hour: readonly number[];
  dayOfMonth: readonly number[];
  month: readonly number[];
  dayOfWeek: readonly number[];
}

/** node-cron's fields of `expression` when all are numbers, else null (calendar tokens). Throws on an invalid expression. */
export function numericFields(expression: string): NumericCronFields | null {
  const fields = cron.parse(expression) as unknown as Record<keyof NumericCronFields, ReadonlyArray<number | string>>;
  for (const values of Object.values(fields)) if (values.some((value) => typeof value !== 'number')) return null;
  return fields as unknown as NumericCronFields;
}

/** How far ahead a next run is looked for (node-cron looks 100 years ahead; no numeric expression needs more than 28). */
const HORIZON_MS = 29 * 366 * 24 * 60 * 60 * 1000;

/**
 * The first instant after `after` (whole seconds) that every field matches, in the process's time
 * zone, or null within 29 years. Like node-cron, a day must match both day of month and day of
 * week. Walks field by field: a month that does not match skips to the next month, a day to the
 * next day, and so on, so a yearly expression takes a few dozen steps.
 */
export function nextRunOf(fields: NumericCronFields, after: Date): Date | null {
  const [seconds, minutes, hours, days, months, weekdays] = [
    new Set(fields.second),
    new Set(fields.minute),
    new Set(fields.hour),
    new Set(fields.dayOfMonth),
    new Set(fields.month),
    new Set(fields.dayOfWeek),
  ];
  const at = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
  const horizon = after.getTime() + HORIZON_MS;
  while (at.getTime() <= horizon) {
    const before = at.getTime();
    if (!months.has(at.getMonth() + 1)) {
      at.setMonth(at.getMonth() + 1, 1);
      at.setHours(0, 0, 0, 0);
    } else if (!days.has(at.getDate()) || !weekdays.has(at.getDay())) {
      at.setDate(at.getDate() + 1);
      at.setHours(0, 0, 0, 0);
    } else if (!hours.has(at.getHours())) at.setHours(at.getHours() + 1, 0, 0, 0);
    else if (!minutes.has(at.getMinutes())) at.setMinutes(at.getMinutes() + 1, 0, 0);
    else if (!seconds.has(at.getSeconds())) at.setSeconds(at.getSeconds() + 1, 0);
    else return at;
    // A local clock turned back (the end of summer time) can map "the next hour" to an earlier instant.
    if (at.getTime() <= before) at.setTime(before + 1000);
  }
  return null;
}

/** setTimeout's longest delay is ~24.8 days; a later run is re-armed on the way, as node-cron does daily. */
const MAX_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * Run `run` at every instant `expression` matches, one run at a time: an instant that comes while
 * the previous run is still going is skipped (node-cron's `noOverlap`). A timer that fires early
 * (the wall clock set back) is re-armed; one that fires late runs the instant it was armed for,
 * once, and the next run is the first instant after now.
 */
export function scheduleCron(expression: string, run: CronRun, options: CronJobOptions): CronJob {
  const fields = numericFields(expression);
  if (!fields) {
    const task = cron.schedule(expression, run, { name: options.name, noOverlap: true });
    return { nextRun: () => task.getNextRun(), destroy: async () => void (await task.destroy()) };
  }
  let next: Date | null = nextRunOf(fields, new Date());
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  const arm = () => {
    if (next) timer = setTimeout(fire, Math.min(MAX_DELAY_MS, Math.max(0, next.getTime() - Date.now())));
  };
  function fire(): void {
    const due = next;
    if (!due) return;
    if (Date.now() < due.getTime()) return arm();
    next = nextRunOf(fields!, new Date(Math.max(Date.now(), due.getTime())));
    arm();
    if (running) return;
    running = true;
    void (async () => {
      try {
        await run({ date: due });
      } catch (error) {
        options.onError(error);
      } finally {
        running = false;
      }
    })();
  }
  arm();
  return {
    nextRun: () => next,
    destroy: async () => {
      clearTimeout(timer);
      next = null;
    },
  };
}
