import { testDialects } from '@loyalty-gateway/storage/testing';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../testing/open-test-store.js';
import { queryPlan } from '../testing/query-plan.js';
import {
  checkpointQuery,
  createReconcileRunStore,
  prunableRunsQuery,
  runsQuery,
  type ReconcileRunStore,
  type ReconcileRunTables,
} from './reconcile-run-store.js';

const DAY = 24 * 60 * 60 * 1000;
const noCounts = { pages: 0, found: 0, recovered: 0, duplicates: 0, failed: 0 };

describe.each(testDialects())('reconciliation runs on $name', ({ name }) => {
  let t: TestStore;
  let runs: ReconcileRunStore;
  beforeEach(async () => {
    t = await openTestStore(name);
    runs = await createReconcileRunStore({ database: t.database, clock: t.clock.now });
  });
  afterEach(() => t.close());

  /** A run of `connectionId` over [until - 15 min, until], started now on the test's clock, then finished (or left running). */
  async function run(connectionId: string, until: number, status: 'succeeded' | 'failed' | 'running') {
    const claimed = await runs.claim({
      vendor: 'clover',
      connectionId,
      trigger: 'schedule',
      since: new Date(until - 15 * 60 * 1000),
      until: new Date(until),
    });
    if (!claimed) throw new Error('slot taken');
    if (status !== 'running') await runs.finish(claimed.id, { ...noCounts, status, error: status === 'failed' ? 'vendor down' : null });
    t.clock.advance(60_000);
    return claimed.id;
  }

  it("pruning deletes finished runs older than the retention but keeps each connection's checkpoint (its latest succeeded window), and runs still running", async () => {
    const start = t.clock.now().getTime();
    const ids = {
      c1Old: await run('c1', start, 'succeeded'),
      c1Failed: await run('c1', start + 1_000, 'failed'),
      c1Checkpoint: await run('c1', start + 2_000, 'succeeded'),
      c2Failed: await run('c2', start + 3_000, 'failed'),
      c2Checkpoint: await run('c2', start + 500, 'succeeded'), // an earlier window, started later: still c2's latest window end
      c2Failed2: await run('c2', start + 4_000, 'failed'),
      // Two succeeded runs with the same window end: the checkpoint is theirs whichever stays; both do.
      c3TieA: await run('c3', start + 5_000, 'succeeded'),
      c3TieB: await run('c3', start + 5_000, 'succeeded'),
      c4Running: await run('c4', start + 6_000, 'running'),
      c5OnlyFailed: await run('c5', start + 7_000, 'failed'),
    };
    t.clock.advance(100 * DAY);
    const recent = await run('c1', t.clock.now().getTime() - 5 * DAY, 'failed');
    const checkpoints = async () => Promise.all(['c1', 'c2', 'c3', 'c4', 'c5'].map((c) => runs.checkpoint(c)));
    const before = await checkpoints();
    expect(before.map((d) => d?.getTime() ?? null)).toEqual([start + 2_000, start + 500, start + 5_000, null, null]);

    expect(await runs.prune(new Date(t.clock.now().getTime() - 90 * DAY))).toBe(5);

    expect(await checkpoints()).toEqual(before);
    const left = new Set((await runs.list({ limit: 500 })).map((r) => r.id));
    expect([...left].sort()).toEqual([ids.c1Checkpoint, ids.c2Checkpoint, ids.c3TieA, ids.c3TieB, ids.c4Running, recent].sort());
    // Nothing more to do; a run within the retention is never touched.
    expect(await runs.prune(new Date(t.clock.now().getTime() - 90 * DAY))).toBe(0);
    expect(await runs.prune(new Date(t.clock.now().getTime() - 10 * DAY))).toBe(0);
    expect(await runs.prune(new Date(t.clock.now().getTime()))).toBe(1); // the recent failed run
  });

  it("with `deletes` (the journal writer's connection in the gateway), every delete of the pruning runs there, and the same runs go", async () => {
    const statements: string[] = [];
    const onWriter = await createReconcileRunStore({
      database: t.database,
      clock: t.clock.now,
      deletes: async (query) => {
        statements.push(query.sql);
        const result = await t.database.db.executeQuery(query);
        return { changes: Number(result.numAffectedRows ?? 0) };
      },
    });
    const start = t.clock.now().getTime();
    for (let n = 0; n < 30; n += 1) await run(`c${n % 3}`, start + n * 1_000, n % 4 === 0 ? 'failed' : 'succeeded');
    t.clock.advance(100 * DAY);
    const before = await Promise.all(['c0', 'c1', 'c2'].map((c) => runs.checkpoint(c)));
    expect(await onWriter.prune(new Date(t.clock.now().getTime() - 90 * DAY))).toBe(27);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((text) => /^delete from "gw_reconcile_runs"/.test(text))).toBe(true);
    expect(await Promise.all(['c0', 'c1', 'c2'].map((c) => runs.checkpoint(c)))).toEqual(before);
    expect((await runs.list({ limit: 100 })).length).toBe(3);
  });

  it('two processes pruning at once delete each run once and both keep every checkpoint', async () => {
    const other = await createReconcileRunStore({ database: t.database, clock: t.clock.now });
    const start = t.clock.now().getTime();
    for (let n = 0; n < 30; n += 1) await run(`c${n % 3}`, start + n * 1_000, n % 4 === 0 ? 'failed' : 'succeeded');
    t.clock.advance(100 * 24 * 60 * 60 * 1000);
    const before = await Promise.all(['c0', 'c1', 'c2'].map((c) => runs.checkpoint(c)));
    const cutoff = new Date(t.clock.now().getTime() - 90 * 24 * 60 * 60 * 1000);
    const [a, b] = await Promise.all([runs.prune(cutoff), other.prune(cutoff)]);
    expect(a + b).toBe(27); // 30 runs, three checkpoints kept
    expect(await Promise.all(['c0', 'c1', 'c2'].map((c) => runs.checkpoint(c)))).toEqual(before);
    expect((await runs.list({ limit: 100 })).length).toBe(3);
  });

  it("a connection's checkpoint is one seek of its index, and the list and the pruning read the time index (migration 0011)", async () => {
    const db = t.database.db as Kysely<ReconcileRunTables>;
    const plan = (query: Parameters<typeof queryPlan>[2]) => queryPlan(db, name, query);
    expect(await plan(checkpointQuery(db, 'c1').compile())).toMatch(/gw_reconcile_runs_checkpoint_idx/);
    expect(await plan(runsQuery(db, {}).compile())).toMatch(/gw_reconcile_runs_started_idx/);
    expect(await plan(runsQuery(db, { vendor: 'clover' }).compile())).toMatch(/gw_reconcile_runs_started_idx/);
    expect(await plan(runsQuery(db, { connectionId: 'c1' }).compile())).toMatch(/gw_reconcile_runs_connection_idx/);
    const pruning = await plan(prunableRunsQuery(db, t.clock.now()).limit(1_000).compile());
    expect(pruning).toMatch(/gw_reconcile_runs_started_idx/);
    expect(pruning).toMatch(/gw_reconcile_runs_checkpoint_idx/); // each candidate's later checkpoint, by seek
  });
});
