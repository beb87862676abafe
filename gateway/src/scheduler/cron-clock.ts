import cron from 'node-cron';

/**
 * The gateway's cron schedules (catalog pulls, order reconciliation): node-cron reads and validates
 * each expression (`cron.parse`: its syntax, names, ranges, steps, nicknames and calendar tokens),
 * and this clock arms one timer for the next run, computed with `Date`'s own calendar in the
 * process's time zone, with node-cron's rules for the day fields' tokens (`L`, `L-2`, `15W`, `LW`;
 * `5L`, `1#2`; see `dayMatcher`).
 *
 * Why not node-cron's scheduler: it computes every date through `Intl.DateTimeFormat`, even
 * without a time zone, and the first call makes ICU's data resident. Measured through the
 * production start under load: 8–9 MiB of the process's RSS (the node binary's pages and ICU's
 * objects), for schedules that fire a few times a day (docs/benchmarks.md).
 */
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

/**
 * node-cron's parse of an expression (day of week 0–6, Sunday 0): numbers, and in the two day
 * fields its calendar tokens as text: day of month `L` (the last day), `L-n` (n days before it),
 * `nW` / `LW` (the weekday nearest to day n / to the last day, within the month); day of week
 * `nL` (the month's last such weekday), `n#k` (its k-th, 1–5).
 */
export interface CronFields {
  second: readonly number[];
  minute: readonly number[];
  hour: readonly number[];
  dayOfMonth: ReadonlyArray<number | string>;
  month: readonly number[];
  dayOfWeek: ReadonlyArray<number | string>;
}

/** node-cron's fields of `expression`. Throws on an invalid expression, with node-cron's message. */
export function cronFields(expression: string): CronFields {
  const fields = cron.parse(expression) as unknown as CronFields;
  for (const name of ['second', 'minute', 'hour', 'month'] as const) {
    if (fields[name].some((value) => typeof value !== 'number')) throw new Error(`${expression}: ${name} must be numbers`);
  }
  dayMatcher(fields); // a day token this clock does not know throws now, not when the job would run
  return fields;
}

const lastDayOf = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
const weekdayOf = (year: number, month: number, day: number): number => new Date(Date.UTC(year, month - 1, day)).getUTCDay();

/** The weekday (Monday–Friday) nearest to `target` within its month, as node-cron finds it; -1 when the month has no such day. */
function nearestWeekday(year: number, month: number, target: number): number {
  const last = lastDayOf(year, month);
  if (target < 1 || target > last) return -1;
  const weekday = weekdayOf(year, month, target);
  if (weekday === 6) return target === 1 ? target + 2 : target - 1;
  if (weekday === 0) return target === last ? target - 2 : target + 1;
  return target;
}

type DayTest = (year: number, month: number, day: number, weekday: number) => boolean;

/** One value of the day of month: a number or one of node-cron's tokens. */
function dayOfMonthTest(value: number | string): DayTest {
  if (typeof value === 'number') return (_y, _m, day) => day === value;
  if (value === 'L') return (year, month, day) => day === lastDayOf(year, month);
  const weekday = /^(\d{1,2}|L)W$/.exec(value);
  if (weekday) {
    const n = weekday[1] === 'L' ? null : Number(weekday[1]);
    return (year, month, day) => nearestWeekday(year, month, n ?? lastDayOf(year, month)) === day;
  }
  const beforeLast = /^L-(\d{1,2})$/.exec(value);
  if (beforeLast) {
    const n = Number(beforeLast[1]);
    return (year, month, day) => day >= 1 && day === lastDayOf(year, month) - n;
  }
  throw new Error(`unknown day-of-month token "${value}"`);
}

/** One value of the day of week: a number or one of node-cron's tokens. */
function dayOfWeekTest(value: number | string): DayTest {
  if (typeof value === 'number') return (_y, _m, _d, weekday) => weekday === value;
  const nth = /^([0-7])#([1-5])$/.exec(value);
  if (nth) {
    const [w, k] = [Number(nth[1]) % 7, Number(nth[2])];
    return (_y, _m, day, weekday) => weekday === w && Math.floor((day - 1) / 7) + 1 === k;
  }
  const last = /^([0-7])L$/i.exec(value);
  if (last) {
    const w = Number(last[1]) % 7;
    return (year, month, day, weekday) => weekday === w && day + 7 > lastDayOf(year, month);
  }
  throw new Error(`unknown day-of-week token "${value}"`);
}

/**
 * Whether a day matches both day fields (node-cron's rule: day of month and day of week, both), its
 * tokens' rules ported from node-cron 4's matcher; cron-clock.test.ts checks them against it.
 */
export function dayMatcher(fields: Pick<CronFields, 'dayOfMonth' | 'dayOfWeek'>): DayTest {
  const numbers = (values: ReadonlyArray<number | string>) => new Set(values.filter((v): v is number => typeof v === 'number'));
  const [days, weekdays] = [numbers(fields.dayOfMonth), numbers(fields.dayOfWeek)];
  const dayTokens = fields.dayOfMonth.filter((v) => typeof v === 'string').map(dayOfMonthTest);
  const weekdayTokens = fields.dayOfWeek.filter((v) => typeof v === 'string').map(dayOfWeekTest);
  return (year, month, day, weekday) =>
    (days.has(day) || dayTokens.some((test) => test(year, month, day, weekday))) &&
    (weekdays.has(weekday) || weekdayTokens.some((test) => test(year, month, day, weekday)));
}

/** How far ahead a next run is looked for: node-cron's 100 years. */
const HORIZON_MS = 100 * 366 * 24 * 60 * 60 * 1000;

/**
 * The first instant after `after` (whole seconds) that every field matches, in the process's time
 * zone, or null within 100 years. Like node-cron, a day must match both day of month and day of
 * week. Walks field by field: a month that does not match skips to the next month, a day to the
 * next day, and so on, so a yearly expression takes a few dozen steps.
 */
export function nextRunOf(fields: CronFields, after: Date): Date | null {
  const [seconds, minutes, hours, months] = [new Set(fields.second), new Set(fields.minute), new Set(fields.hour), new Set(fields.month)];
  const dayMatches = dayMatcher(fields);
  const at = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
  const horizon = after.getTime() + HORIZON_MS;
  while (at.getTime() <= horizon) {
    const before = at.getTime();
    if (!months.has(at.getMonth() + 1)) {
      at.setMonth(at.getMonth() + 1, 1);
      at.setHours(0, 0, 0, 0);
    } else if (!dayMatches(at.getFullYear(), at.getMonth() + 1, at.getDate(), at.getDay())) {
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
  const fields = cronFields(expression);
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
    next = nextRunOf(fields, new Date(Math.max(Date.now(), due.getTime())));
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
