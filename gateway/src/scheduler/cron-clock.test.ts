import fc from 'fast-check';
import cron from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cronFields, nextRunOf, scheduleCron } from './cron-clock.js';

/** node-cron's own next run after `after` (its scheduler's computation, through Intl): the oracle. Null where it finds none in 100 years. */
function nodeCronNext(expression: string, after: Date): Date | null {
  vi.useFakeTimers({ toFake: ['Date'], now: after });
  try {
    return cron.createTask(expression, () => undefined).getNextRuns(1)[0]!;
  } catch (error) {
    if (/Could not find next matching date/.test((error as Error).message)) return null;
    throw error;
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

/** Expressions whose day fields use node-cron's calendar tokens, alone or in a list with numbers. */
const dayOfMonthToken = fc.oneof(
  fc.constantFrom('L', 'LW', 'L-0', 'L-1', 'L-2', 'L-15', 'L-30'),
  fc.integer({ min: 1, max: 31 }).map((day) => `${day}W`),
);
const dayOfWeekToken = fc.oneof(
  fc.integer({ min: 0, max: 7 }).map((day) => `${day}L`),
  fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 5 })).map(([day, nth]) => `${day}#${nth}`),
);
const withTokens = (token: fc.Arbitrary<string>, other: fc.Arbitrary<string>) =>
  fc.oneof(
    token,
    fc.tuple(token, other).map(([a, b]) => `${a},${b}`),
  );
/**
 * Tokens in one day field, the other `*` mostly; now and then a plain field or tokens in both, which
 * seldom meet (a day must match both): node-cron then walks 100 years, ~0.2 s a case.
 */
const mostlyAny = (plain: fc.Arbitrary<string>) => fc.oneof({ weight: 6, arbitrary: fc.constant('*') }, { weight: 1, arbitrary: plain });
const tokenDays = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(withTokens(dayOfMonthToken, dayOfMonthToken), mostlyAny(field(0, 7))) },
  { weight: 8, arbitrary: fc.tuple(mostlyAny(field(1, 31)), withTokens(dayOfWeekToken, dayOfWeekToken)) },
  { weight: 1, arbitrary: fc.tuple(dayOfMonthToken, dayOfWeekToken) },
);
const tokenExpression = fc
  .tuple(field(0, 59), field(0, 23), tokenDays, field(1, 12))
  .map(([minute, hour, [dayOfMonth, dayOfWeek], month]) => [minute, hour, dayOfMonth, month, dayOfWeek].join(' '))
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
        expect(nextRunOf(cronFields(text), after)?.toISOString()).toBe(nodeCronNext(text, after)?.toISOString());
      }),
      { numRuns: 400 },
    );
  });

  it("finds node-cron's next run for expressions with its calendar tokens (L, L-n, nW, LW; nL, n#k)", () => {
    fc.assert(
      fc.property(tokenExpression, instant, (text, after) => {
        expect(nextRunOf(cronFields(text), after)?.toISOString()).toBe(nodeCronNext(text, after)?.toISOString());
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
    expect(nextRunOf(cronFields(text), new Date(after))?.toISOString()).toBe(next);
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
    expect(nextRunOf(cronFields(text), new Date(after))?.toISOString()).toBe(next);
  });

  it.each([
    ['0 0 L * *', '2026-02-10T00:00:00Z', '2026-02-28T00:00:00.000Z'],
    ['0 0 L-2 * *', '2028-02-10T00:00:00Z', '2028-02-27T00:00:00.000Z'],
    ['0 0 15W * *', '2026-11-01T00:00:00Z', '2026-11-16T00:00:00.000Z'], // the 15th is a Sunday
    ['0 0 1W * *', '2026-07-20T00:00:00Z', '2026-08-03T00:00:00.000Z'], // 1 August is a Saturday: not back into July
    ['0 0 LW * *', '2026-05-01T00:00:00Z', '2026-05-29T00:00:00.000Z'], // 31 May is a Sunday
    ['0 0 * * 5L', '2026-11-01T00:00:00Z', '2026-11-27T00:00:00.000Z'],
    ['0 0 * * 1#2', '2026-11-01T00:00:00Z', '2026-11-09T00:00:00.000Z'],
    ['0 0 * * 0#5', '2026-12-01T00:00:00Z', '2027-01-31T00:00:00.000Z'],
  ])('%s after %s is %s (UTC)', (text, after, next) => {
    vi.stubEnv('TZ', 'UTC');
    expect(nextRunOf(cronFields(text), new Date(after))?.toISOString()).toBe(next);
  });

  it('reads expressions as node-cron does, its calendar tokens included, and refuses invalid ones with its message', () => {
    expect(cronFields('@daily')).toEqual(cron.parse('@daily'));
    expect(cronFields('0 0 L,15W * 5L,1#2')).toMatchObject({ dayOfMonth: ['L', '15W'], dayOfWeek: ['5L', '1#2'] });
    expect(() => cronFields('61 * * * *')).toThrow(/invalid expression for minute/);
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

  it('runs calendar tokens on its own timer, never through Intl (ICU)', async () => {
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
