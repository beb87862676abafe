import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineUnavailableError } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { balanceOf, ledgerSum, openSeededEngine, sale, type TestEngine } from '../testing/fixture.js';
import type { Tx } from './context.js';
import { TransactionBatcher, type BatchClosing, type BatchNotice, type BatchOpening, type Defer } from './transaction-batcher.js';

describe.each(testDialects())('group commit on $name', ({ name }) => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openSeededEngine(name);
  });
  afterEach(async () => {
    await t.close();
  });

  it('a failing event in a batch is rolled back alone; the others commit', async () => {
    if (name === 'sqlite') {
      await sql`create trigger boom before insert on sales when new.transaction_id = 'tx-boom' begin select raise(abort, 'forced failure'); end`.execute(
        t.db,
      );
    } else {
      await sql`create function boom() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`.execute(t.db);
      await sql`create trigger boom before insert on sales for each row when (new.transaction_id = 'tx-boom') execute function boom()`.execute(
        t.db,
      );
    }
    const commands = Array.from({ length: 10 }, (_, i) => sale({ id: i === 4 ? 'tx-boom' : `tx-ok-${i}`, totalMinor: 1000 }));
    const results = await Promise.allSettled(commands.map((c) => t.engine.earn(c)));
    expect(results.map((r) => r.status)).toEqual(commands.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')));
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1200 + 9 * 10);
    expect(await ledgerSum(t.db, 'MBR-0001')).toBe(1290);
    const sales = await t.db.selectFrom('sales').select('transaction_id').execute();
    expect(sales.map((s) => s.transaction_id)).not.toContain('tx-boom');
    expect(sales).toHaveLength(9);
  });

  it('duplicates inside one batch are still decided by the unique key', async () => {
    const command = sale({ totalMinor: 1000 });
    const results = await Promise.all([t.engine.earn(command), t.engine.earn(command), t.engine.earn(sale({ totalMinor: 500 }))]);
    expect(results.map((r) => r.status)).toEqual(['processed', 'duplicate', 'processed']);
    expect(await balanceOf(t.db, 'MBR-0001')).toBe(1215);
  });

  it('a unit that fails after writing leaves nothing of itself; the units of its batch commit, each answered once', async () => {
    const batcher = new TransactionBatcher(t.db, name);
    const runs = new Map<string, number>();
    const put =
      (key: string, fail = false) =>
      async (trx: Tx) => {
        runs.set(key, (runs.get(key) ?? 0) + 1);
        await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
        if (fail) throw new Error(`refused ${key}`);
        return key;
      };
    const results = await Promise.allSettled(['fail-a', 'fail-b', 'fail-c', 'fail-d'].map((k) => batcher.run(put(k, k === 'fail-b'))));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'fail-a',
      'refused fail-b',
      'fail-c',
      'fail-d',
    ]);
    const keys = (await t.db.selectFrom('engine_settings').select('key').where('key', 'like', 'fail-%').orderBy('key').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['fail-a', 'fail-c', 'fail-d']);
    expect(runs.get('fail-b')).toBe(1); // the failing unit is not run again
    for (const key of ['fail-a', 'fail-c', 'fail-d']) expect(runs.get(key)).toBeLessThanOrEqual(2);
  });

  it("a batch's opening statement gives each unit its part; when it fails the units run again with savepoints, opening for themselves", async () => {
    let openings = 0;
    let failNext = true;
    const opening: BatchOpening = async (_trx, inputs) => {
      openings++;
      if (failNext) {
        failNext = false;
        throw new Error('deadlock detected');
      }
      return inputs.map((input) => `opened ${String(input)}`);
    };
    const notices: BatchNotice[] = [];
    const batcher = new TransactionBatcher(t.db, name, undefined, opening, (notice) => notices.push(notice));
    const seen = new Map<string, unknown>();
    const unit = (key: string) => async (trx: Tx, opened?: unknown) => {
      seen.set(key, opened);
      await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
      return key;
    };
    expect(await Promise.all(['open-1', 'open-2', 'open-3'].map((k) => batcher.run(unit(k), undefined, k, k)))).toEqual([
      'open-1',
      'open-2',
      'open-3',
    ]);
    expect(openings).toBe(1); // failed, and the batch that ran them again (with savepoints) did not open
    // Nobody's call failed, so the owner is told (the gateway logs it): which failure, how many units.
    expect(notices).toEqual([{ event: 'batch-opening-failed', units: 3, error: 'deadlock detected', code: undefined }]);
    expect([...seen.values()]).toEqual([undefined, undefined, undefined]);
    // Later batches open again (after at most 8 with savepoints), each unit given its own part.
    let round = 0;
    while (openings === 1 && round < 10) {
      round++;
      await Promise.all(['a', 'b'].map((k) => batcher.run(unit(`open-${round}-${k}`), undefined, k, k)));
    }
    expect(round).toBeLessThanOrEqual(8);
    expect(seen.get(`open-${round}-a`)).toBe('opened a');
    expect(seen.get(`open-${round}-b`)).toBe('opened b');
    const keys = await t.db.selectFrom('engine_settings').select('key').where('key', 'like', 'open-%').execute();
    expect(keys).toHaveLength(3 + 2 * round);
  });

  describe("a batch's closing statement", () => {
    const opening: BatchOpening = async (_trx, inputs) => inputs;
    const keysLike = async (prefix: string) =>
      (await t.db.selectFrom('engine_settings').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map(
        (r) => r.key,
      );

    it('takes every deferred input in the batch order; the deferring units then run on one at a time, in that order', async () => {
      const log: string[] = [];
      const closing: BatchClosing = async (trx, inputs) => {
        log.push(`closing ${inputs.join(' ')}`);
        for (const input of inputs)
          await trx
            .insertInto('engine_settings')
            .values({ key: `close-${String(input)}`, value: 'x' })
            .execute();
        return inputs.map((input) => `out ${String(input)}`);
      };
      const batcher = new TransactionBatcher(t.db, name, undefined, opening, undefined, closing);
      const deferring = (key: string) => async (trx: Tx, _opened?: unknown, defer?: Defer) => {
        log.push(`start ${key}`);
        const output = defer ? await defer(key) : 'alone';
        log.push(`resumed ${key}: ${String(output)}`);
        await sleep(5); // a unit that takes its time after its output: the next one still waits for it
        await trx
          .insertInto('engine_settings')
          .values({ key: `after-${key}`, value: 'x' })
          .execute();
        log.push(`end ${key}`);
        return output;
      };
      const plain = async (trx: Tx) => {
        log.push('plain');
        await trx.insertInto('engine_settings').values({ key: 'close-plain', value: 'x' }).execute();
        return 'plain';
      };
      const results = await Promise.all([
        batcher.run(deferring('b'), undefined, 'b', 'b'),
        batcher.run(plain, undefined, 'p'), // no opening input: runs to its end in its turn
        batcher.run(deferring('a'), undefined, 'a', 'a'),
      ]);
      expect(results).toEqual(['out b', 'plain', 'out a']);
      // On PostgreSQL the batch runs in its keys' order (a, b, p); on SQLite in arrival order.
      const order = name === 'postgres' ? ['a', 'b'] : ['b', 'a'];
      const [first, second] = order as [string, string];
      expect(log).toEqual([
        ...(name === 'postgres' ? [`start a`, `start b`, 'plain'] : [`start b`, 'plain', `start a`]),
        `closing ${first} ${second}`,
        `resumed ${first}: out ${first}`,
        `end ${first}`,
        `resumed ${second}: out ${second}`,
        `end ${second}`,
      ]);
      expect(await keysLike('close-')).toEqual(['close-a', 'close-b', 'close-plain']);
      expect(await keysLike('after-')).toEqual(['after-a', 'after-b']);
    });

    it('a unit failing after its output rolls the batch back: it alone gets its error, the others run again and commit', async () => {
      let closings = 0;
      const closing: BatchClosing = async (trx, inputs) => {
        closings++;
        for (const input of inputs)
          await trx
            .insertInto('engine_settings')
            .values({ key: `closed-${String(input)}`, value: 'x' })
            .execute();
        return inputs;
      };
      const batcher = new TransactionBatcher(t.db, name, undefined, opening, undefined, closing);
      const runs = new Map<string, number>();
      const unit =
        (key: string, fail = false) =>
        async (trx: Tx, _opened?: unknown, defer?: Defer) => {
          runs.set(key, (runs.get(key) ?? 0) + 1);
          if (defer) await defer(key);
          else
            await trx
              .insertInto('engine_settings')
              .values({ key: `closed-${key}`, value: 'x' })
              .execute();
          if (fail) throw new Error(`refused ${key}`);
          return key;
        };
      const results = await Promise.allSettled(['u1', 'u2', 'u3'].map((k) => batcher.run(unit(k, k === 'u2'), undefined, k, k)));
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['u1', 'refused u2', 'u3']);
      expect(closings).toBe(1); // the units run again in a batch with savepoints, where none defers
      expect(runs).toEqual(
        new Map([
          ['u1', 2],
          ['u2', 1],
          ['u3', 2],
        ]),
      );
      expect(await keysLike('closed-')).toEqual(['closed-u1', 'closed-u3']);
    });

    it('when it fails, the batch is rolled back and all its units run again with savepoints, none lost; the owner is told', async () => {
      let closings = 0;
      const closing: BatchClosing = async (trx) => {
        closings++;
        await trx.insertInto('engine_settings').values({ key: 'half-written', value: 'x' }).execute();
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      };
      const notices: BatchNotice[] = [];
      const batcher = new TransactionBatcher(t.db, name, undefined, opening, (notice) => notices.push(notice), closing);
      const given = new Map<string, boolean>();
      const unit = (key: string) => async (trx: Tx, _opened?: unknown, defer?: Defer) => {
        given.set(key, defer !== undefined);
        if (defer) await defer(key);
        else
          await trx
            .insertInto('engine_settings')
            .values({ key: `fell-back-${key}`, value: 'x' })
            .execute();
        return key;
      };
      const plain = async (trx: Tx) => {
        await trx.insertInto('engine_settings').values({ key: 'fell-back-plain', value: 'x' }).execute();
        return 'plain';
      };
      expect(
        await Promise.all([
          batcher.run(unit('x'), undefined, 'x', 'x'),
          batcher.run(plain, undefined, 'y'),
          batcher.run(unit('z'), undefined, 'z', 'z'),
        ]),
      ).toEqual(['x', 'plain', 'z']);
      expect(closings).toBe(1);
      expect(notices).toEqual([{ event: 'batch-closing-failed', units: 3, error: 'deadlock detected', code: '40P01' }]);
      expect(given).toEqual(
        new Map([
          ['x', false],
          ['z', false],
        ]),
      ); // the second time, no defer
      expect(await keysLike('fell-back-')).toEqual(['fell-back-plain', 'fell-back-x', 'fell-back-z']);
      expect(await keysLike('half-written')).toEqual([]);
    });
  });

  it('a unit still running at its deadline rolls back to its savepoint alone; the rest of its batch commits', async () => {
    const batcher = new TransactionBatcher(t.db, name);
    const put =
      (key: string, pause = 0) =>
      async (trx: Tx) => {
        await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
        if (pause > 0) await sleep(pause);
        return key;
      };
    let ranLate = false;
    const results = await Promise.allSettled([
      batcher.run(put('unit-a')),
      batcher.run(put('unit-late', 80), Date.now() + 30),
      batcher.run(put('unit-c'), Date.now() + 5_000),
      batcher.run(async (trx) => {
        ranLate = true;
        return put('unit-expired')(trx);
      }, Date.now() - 1),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(EngineUnavailableError);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(EngineUnavailableError);
    expect(ranLate).toBe(false); // expired while queued: never run
    const keys = (await t.db.selectFrom('engine_settings').select('key').where('key', 'like', 'unit-%').orderBy('key').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['unit-a', 'unit-c']);
  });

  it('a released unit is answered before its deadline: its batch commits at once, the units not yet run go to the next batch', async () => {
    const batcher = new TransactionBatcher(t.db, name);
    const put =
      (key: string, pause = 0) =>
      async (trx: Tx) => {
        await trx.insertInto('engine_settings').values({ key, value: 'x' }).execute();
        if (pause > 0) await sleep(pause);
        return Date.now();
      };
    // Margins wide enough for a loaded machine: answered after the first slow unit (~250 ms), well
    // before its deadline, which comes long before the three slow units' end (~750 ms).
    const deadline = Date.now() + 450;
    let answeredAt = 0;
    const quick = batcher.run(put('early-quick'), deadline).then((value) => {
      answeredAt = Date.now();
      return value;
    });
    const slow = [1, 2, 3].map((i) => batcher.run(put(`early-slow-${i}`, 250)));
    const results = await Promise.allSettled([quick, ...slow]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // Answered after its commit, before its deadline (not after the three 250 ms units).
    expect(answeredAt).toBeLessThan(deadline);
    const keys = (await t.db.selectFrom('engine_settings').select('key').where('key', 'like', 'early-%').orderBy('key').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['early-quick', 'early-slow-1', 'early-slow-2', 'early-slow-3']);
  });

  it('a lone unit past its deadline is rolled back too (its own transaction)', async () => {
    const batcher = new TransactionBatcher(t.db, name);
    const late = batcher.run(async (trx) => {
      await trx.insertInto('engine_settings').values({ key: 'lone', value: 'x' }).execute();
      await sleep(60);
    }, Date.now() + 20);
    await expect(late).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(await t.db.selectFrom('engine_settings').select('key').where('key', '=', 'lone').execute()).toEqual([]);
  });
});
