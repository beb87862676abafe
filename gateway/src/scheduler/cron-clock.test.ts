import fc from 'fast-check';
import cron from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextRunOf, numericFields, scheduleCron } from './cron-clock.js';

/** node-cron's own next run after `after` (its scheduler's computation, through Intl): the oracle. */
function nodeCronNext(expression: string, after: Date): Date {
  vi.useFakeTimers({ toFake: ['Date'], now: after });
  try {
    return cron.createTask(expression, () => undefined).getNextRuns(1)[0]!;
  } finally {
    vi.useRealTimers();
  }
}

/** One cron field: `*`, a value, a range, a list, a step over `*` or a range. */
const field = (min: number, max: number) =>
  fc.oneof(
    fc.constant('*'),
    fc.integer({ min, max }).map(String),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.uniqueArray(fc.integer({ min, max }), { minLength: 2, maxLength: 4 }).map((values) => values.join(',')),
    fc.integer({ min: 2, max: Math.max(2, max - min) }).map((step) => `*/${step}`),
    fc
      .tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min: 1, max: 7 }))
      .map(([a, b, step]) => `${Math.min(a, b)}-${Math.max(a, b)}/${step}`),
  );

/** Five- and six-field expressions over every field's range (day of week 0–7, Sunday both), as node-cron accepts them. */
const expression = fc
  .tuple(
    fc.option(field(0, 59), { nil: undefined }),
    field(0, 59),
    field(0, 23),
    field(1, 31),
    field(1, 12),
    fc.oneof({ weight: 3, arbitrary: field(0, 7) }, { weight: 1, arbitrary: fc.constantFrom('mon-fri', 'sun', 'SAT,SUN') }),
  )
  .map(([second, ...rest]) => (second === undefined ? rest : [second, ...rest]).join(' '))
  .filter((text) => cron.validate(text));

const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T23:59:59Z'), noInvalidDate: true });

describe('cron clock: next runs', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("finds node-cron's next run for any numeric expression and instant (the process's time zone)", () => {
    fc.assert(
      fc.property(expression, instant, (text, after) => {
        const fields = numericFields(text);
        expect(fields).not.toBeNull();
        expect(nextRunOf(fields!, after)?.toISOString()).toBe(nodeCronNext(text, after).toISOString());
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['0 3 * * *', '2026-11-27T18:26:08.500Z', '2026-11-28T03:00:00.000Z'],
    ['20 3 * * *', '2026-12-31T03:20:00.000Z', '2027-01-01T03:20:00.000Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['0 0 29 2 1', '2024-03-01T00:00:00.000Z', '2044-02-29T00:00:00.000Z'],
    ['*/15 * * * * *', '2026-11-27T18:26:59.999Z', '2026-11-27T18:27:00.000Z'],
  ])('%s after %s is %s (UTC)', (text, after, next) => {
    vi.stubEnv('TZ', 'UTC');
    expect(nextRunOf(numericFields(text)!, new Date(after))?.toISOString()).toBe(next);
  });

  // node-cron cannot be the oracle here: ICU keeps the time zone it read first, while Date follows
  // a change of TZ. These are node-cron's rules worked by hand: a local time that does not exist
  // is skipped; one that happens twice runs once, at its first occurrence.
  it.each([
    ['30 2 * * *', '2026-03-07T12:00:00Z', '2026-03-09T06:30:00.000Z'], // 02:30 does not exist on 8 March
    ['30 1 * * *', '2026-10-31T12:00:00Z', '2026-11-01T05:30:00.000Z'], // 01:30 EDT, the first of two
    ['30 1 * * *', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00.000Z'], // not again at 01:30 EST
    ['0 * * * *', '2026-11-01T05:30:00Z', '2026-11-01T07:00:00.000Z'], // 01:00 EST is the repeated hour
    ['0 0 * * *', '2026-03-07T12:00:00Z', '2026-03-08T05:00:00.000Z'],
  ])('%s after %s is %s in America/New_York (summer time)', (text, after, next) => {
    vi.stubEnv('TZ', 'America/New_York');
    expect(nextRunOf(numericFields(text)!, new Date(after))?.toISOString()).toBe(next);
  });

  it("leaves expressions with node-cron's calendar tokens to node-cron, and refuses invalid ones as node-cron does", () => {
    for (const text of ['0 0 L * *', '0 0 15W * *', '0 0 * * 1#2', '0 0 * * 5L', '0 0 L-2 * *']) expect(numericFields(text)).toBeNull();
    expect(numericFields('@daily')).toEqual(cron.parse('@daily'));
    expect(() => numericFields('61 * * * *')).toThrow(/invalid expression for minute/);
  });
});

describe('cron clock: the timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at each instant with that instant, one run at a time, and stops when destroyed', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00.250Z') });
    const dates: string[] = [];
    let release!: () => void;
    const job = scheduleCron(
      '*/2 * * * * *',
      async ({ date }) => {
        dates.push(date.toISOString());
        if (dates.length === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      { name: 'test', onError: (error) => expect.fail(String(error)) },
    );
    expect(job.nextRun()?.toISOString()).toBe('2026-11-27T10:00:02.000Z');
    await vi.advanceTimersByTimeAsync(4_000); // runs at :02 and :04; the second one hangs
    expect(dates).toEqual(['2026-11-27T10:00:02.000Z', '2026-11-27T10:00:04.000Z']);
    await vi.advanceTimersByTimeAsync(4_000); // :06 and :08 come while it runs: skipped
    expect(dates).toHaveLength(2);
    release();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(dates.at(-1)).toBe('2026-11-27T10:00:10.000Z');
    await job.destroy();
    expect(job.nextRun()).toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(dates).toHaveLength(3);
  });

  it('a run that throws is reported and the next one still comes', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
    const errors: unknown[] = [];
    let runs = 0;
    const job = scheduleCron(
      '* * * * * *',
      () => {
        runs += 1;
        throw new Error(`run ${runs} failed`);
      },
      { name: 'test', onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await job.destroy();
    expect(runs).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1 failed', 'run 2 failed']);
  });

  it('a timer that fires before its instant (the wall clock set back) waits for it', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
    const dates: string[] = [];
    const job = scheduleCron('0 * * * * *', ({ date }) => void dates.push(date.toISOString()), { name: 'test', onError: () => undefined });
    vi.setSystemTime(new Date('2026-11-27T09:59:30Z')); // 30 s back: the armed 60 s now end at 10:00:30
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dates).toEqual([]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(dates).toEqual(['2026-11-27T10:01:00.000Z']);
    await job.destroy();
  });

  it("schedules calendar tokens through node-cron's own scheduler", async () => {
    const job = scheduleCron('0 0 L * *', () => undefined, { name: 'test', onError: () => undefined });
    const next = job.nextRun()!;
    const dayAfter = new Date(next.getTime() + 24 * 60 * 60 * 1000);
    expect(dayAfter.getDate()).toBe(1); // the last day of a month
    await job.destroy();
  });
});
