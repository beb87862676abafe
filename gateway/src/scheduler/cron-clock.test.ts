import { afterEach, describe, expect, it, vi } from 'vitest';
import { cronProblem, isValidCron, nextRunOf, scheduleCron } from './cron-clock.js';

// Before croner, the gateway computed next runs itself and checked them against node-cron's for
// random expressions and instants; croner gave the same next run for 4,000 of them and 3,100 with
// calendar tokens, in UTC and in America/New_York, except the `L-n` and `LW`-in-a-list forms it
// does not read (refused, below). These cases are worked by hand.
describe('cron clock: next runs', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    ['0 3 * * *', '2026-11-27T18:26:08.500Z', '2026-11-28T03:00:00.000Z'],
    ['20 3 * * *', '2026-12-31T03:20:00.000Z', '2027-01-01T03:20:00.000Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['0 0 29 2 1', '2024-03-01T00:00:00.000Z', '2044-02-29T00:00:00.000Z'], // both day fields must match
    ['*/15 * * * * *', '2026-11-27T18:26:59.999Z', '2026-11-27T18:27:00.000Z'],
    ['@daily', '2026-11-27T18:26:08.500Z', '2026-11-28T00:00:00.000Z'],
    ['0 9 * * mon-fri', '2026-11-27T10:00:00.000Z', '2026-11-30T09:00:00.000Z'],
    ['0 9 * * 7', '2026-11-27T10:00:00.000Z', '2026-11-29T09:00:00.000Z'], // 7 is Sunday too
  ])('%s after %s is %s (UTC)', (text, after, next) => {
    vi.stubEnv('TZ', 'UTC');
    expect(nextRunOf(text, new Date(after))?.toISOString()).toBe(next);
  });

  // Summer time, croner's rules (Vixie cron's): a fixed time that does not exist runs when the gap
  // ends, that day; one that happens twice runs once, at its first occurrence; an expression with a
  // wildcard in its hour skips the missing hour and runs in both repeated ones.
  it.each([
    ['30 2 * * *', '2026-03-07T12:00:00Z', '2026-03-08T07:00:00.000Z'], // 02:30 does not exist on 8 March: 03:00 EDT
    ['30 2 * * *', '2026-03-08T07:00:00Z', '2026-03-09T06:30:00.000Z'], // and the next day as usual
    ['30 1 * * *', '2026-10-31T12:00:00Z', '2026-11-01T05:30:00.000Z'], // 01:30 EDT, the first of two
    ['30 1 * * *', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00.000Z'], // not again at 01:30 EST
    ['0 * * * *', '2026-11-01T05:30:00Z', '2026-11-01T06:00:00.000Z'], // 01:00 EST, the repeated hour: hourly keeps running
    ['30 * * * *', '2026-03-08T06:45:00Z', '2026-03-08T07:30:00.000Z'], // 02:30 skipped: 03:30 EDT next
    ['0 0 * * *', '2026-03-07T12:00:00Z', '2026-03-08T05:00:00.000Z'],
  ])('%s after %s is %s in America/New_York (summer time)', (text, after, next) => {
    vi.stubEnv('TZ', 'America/New_York');
    expect(nextRunOf(text, new Date(after))?.toISOString()).toBe(next);
  });

  it.each([
    ['0 0 L * *', '2026-02-10T00:00:00Z', '2026-02-28T00:00:00.000Z'],
    ['0 0 15W * *', '2026-11-01T00:00:00Z', '2026-11-16T00:00:00.000Z'], // the 15th is a Sunday
    ['0 0 1W * *', '2026-07-20T00:00:00Z', '2026-08-03T00:00:00.000Z'], // 1 August is a Saturday: not back into July
    ['0 0 LW * *', '2026-05-01T00:00:00Z', '2026-05-29T00:00:00.000Z'], // 31 May is a Sunday
    ['0 0 * * 5L', '2026-11-01T00:00:00Z', '2026-11-27T00:00:00.000Z'],
    ['0 0 * * 1#2', '2026-11-01T00:00:00Z', '2026-11-09T00:00:00.000Z'],
    ['0 0 * * 0#5', '2026-12-01T00:00:00Z', '2027-01-31T00:00:00.000Z'],
    ['0 0 L,15W * *', '2026-11-16T00:00:00Z', '2026-11-30T00:00:00.000Z'],
    ['0 3 L * 5', '2026-11-01T00:00:00Z', '2027-04-30T03:00:00.000Z'], // the last day only when it is a Friday
  ])('%s after %s is %s (UTC)', (text, after, next) => {
    vi.stubEnv('TZ', 'UTC');
    expect(nextRunOf(text, new Date(after))?.toISOString()).toBe(next);
  });

  it("accepts five fields or six with seconds, and refuses the rest with croner's message", () => {
    for (const text of ['20 3 * * *', '*/2 * * * * *', '@weekly', '0 0 L,15W * 5L,1#2', '0 4 * * MON'])
      expect(isValidCron(text)).toBe(true);
    expect(cronProblem('61 * * * *')).toMatch(/Invalid value for minute: 61/);
    expect(cronProblem('* * * * * * *')).toMatch(/requires exactly 5 or 6 parts/);
    expect(cronProblem('nightly')).toMatch(/five, six, or seven/);
    expect(cronProblem('0 0 L-2 * *')).toMatch(/L has to be a value of its own/); // node-cron's L-n: not read
    expect(() => nextRunOf('0 0 32 * *', new Date())).toThrow(/Invalid value for day/);
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
      { onError: (error) => expect.fail(String(error)) },
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
      { onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await job.destroy();
    expect(runs).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1 failed', 'run 2 failed']);
  });

  it('a timer that fires before its instant (the wall clock set back) waits for it', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
    const dates: string[] = [];
    const job = scheduleCron('0 * * * * *', ({ date }) => void dates.push(date.toISOString()), { onError: () => undefined });
    vi.setSystemTime(new Date('2026-11-27T09:59:30Z')); // 30 s back: the armed 60 s now end at 10:00:30
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dates).toEqual([]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(dates).toEqual(['2026-11-27T10:01:00.000Z']);
    await job.destroy();
  });

  it("runs calendar tokens on croner's timer, never through Intl (ICU)", async () => {
    vi.useFakeTimers({ now: new Date(2026, 1, 27, 12, 0, 0) }); // 27 February 2026, local time
    const original = Intl.DateTimeFormat;
    let intlCalls = 0;
    Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      intlCalls += 1;
      return new original(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    try {
      const dates: Date[] = [];
      const job = scheduleCron('0 0 L * *', ({ date }) => void dates.push(date), { onError: () => undefined });
      expect(job.nextRun()).toEqual(new Date(2026, 1, 28, 0, 0, 0));
      await vi.advanceTimersByTimeAsync(13 * 60 * 60 * 1000);
      expect(dates).toEqual([new Date(2026, 1, 28, 0, 0, 0)]);
      expect(job.nextRun()).toEqual(new Date(2026, 2, 31, 0, 0, 0));
      await job.destroy();
      expect(intlCalls).toBe(0);
    } finally {
      Intl.DateTimeFormat = original;
    }
  });
});
