/**
 * Micro-benchmark of the embedded engine's earn path on PostgreSQL, without HTTP: a closed loop of
 * BENCH_CONCURRENCY earns in flight (default 64) for BENCH_SECONDS (default 10, after a 2 s
 * warm-up), sales spread over 300 members as `npm run bench` sends them (a stamp item, points),
 * across BENCH_ENGINES engine instances (default 2, each with its own pool of BENCH_POOL
 * connections, like two gateway processes) on one fresh schema that is dropped afterwards.
 *
 * Reports earns/s, latency p50/p99, statements sent per earn (counted on pg's Client.query), CPU
 * per earn of this node process and of PostgreSQL (this run's backends, found by
 * application_name, plus the server's background processes: WAL writer, checkpointer…), read
 * from /proc. The machine is shared: compare ratios between runs, not absolute numbers.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/earn-pg.ts
 *
 * BENCH_SQL runs statements on the fresh schema before the load, to measure a schema change
 * (dropping the foreign keys of sales and ledger_entries to members, say).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { EarnCommand } from '@loyalty-gateway/core';
import { createDatabase, ensureSchema, migrate, type SqlDatabase } from '@loyalty-gateway/storage';
import { runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { createEmbeddedEngine, engineMigrations, type EmbeddedEngine } from '../src/index.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const engines = Number(process.env.BENCH_ENGINES ?? 2);
const poolSize = process.env.BENCH_POOL === undefined ? undefined : Number(process.env.BENCH_POOL);
const lanes = process.env.BENCH_LANES === undefined ? undefined : Number(process.env.BENCH_LANES);
const APP = `pgearn-bench-${process.pid}`;
const withApp = `${url}${url.includes('?') ? '&' : '?'}application_name=${APP}`;

let statements = 0;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const schema = `bench_pgearn_${randomBytes(4).toString('hex')}`;
await ensureSchema({ postgresUrl: url, postgresSchema: schema });
const databases: SqlDatabase<unknown>[] = [];
const instances: EmbeddedEngine[] = [];
try {
  for (let i = 0; i < engines; i++) {
    const database = createDatabase<unknown>({ postgresUrl: withApp, postgresSchema: schema, poolSize });
    databases.push(database);
    if (i === 0) {
      await migrate(database.db, engineMigrations);
      // BENCH_SQL: statements run on the fresh schema before the load (to measure a schema change).
      if (process.env.BENCH_SQL) await runPostgresStatement(url, `set search_path to ${schema}; ${process.env.BENCH_SQL}`);
    }
    instances.push(await createEmbeddedEngine({ database, ...(lanes === undefined ? {} : { groupCommitLanes: lanes }) }));
  }
  const members = Array.from({ length: 300 }, (_, i) => `MBR-B-${String(i).padStart(3, '0')}`);
  await instances[0]!.applySeed({
    codePrefix: 'LOYAL',
    merchants: [
      {
        id: 'm-bench',
        name: 'Bench Coffee',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [{ id: 'o-bench', name: 'Bench outlet' }],
        members: members.map((membershipId, i) => ({ membershipId, phone: `+1555020${String(i).padStart(4, '0')}`, points: 0 })),
        rewards: [
          {
            id: '0b6f8a3e-1c1d-4a7e-9d0a-7f1f2b9d0c11',
            type: 'STAMP',
            title: 'Coffee card',
            stampsRequired: 10,
            match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
          },
        ],
        issuedCodes: [],
      },
    ],
  });
  for (const engine of instances.slice(1)) await engine.listMerchants();

  let sequence = 0;
  const command = (): EarnCommand => {
    const n = sequence++;
    return {
      merchantId: 'm-bench',
      outletId: 'o-bench',
      source: { vendor: 'bench-pos', storeId: 'store-bench' },
      eventId: `e-${n}`,
      occurredAt: '2026-01-15T10:00:00Z',
      store: { id: 'store-bench' },
      transaction: {
        id: `tx-${process.pid}-${n}`,
        totalMinor: 1250 + (n % 500),
        currency: 'USD',
        customer: { type: 'membershipId', value: members[Math.floor(Math.random() * members.length)]! },
        items: [
          { name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 2, unitPriceMinor: 450 },
          { name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPriceMinor: 350 },
        ],
        discountCodes: [],
      },
    };
  };

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const postgresPids = async (): Promise<{ ours: number[]; background: number[] }> => {
    const { rows } = await admin.query<{ pid: number; ours: boolean }>(
      `select pid, application_name = $1 as ours from pg_stat_activity where application_name = $1 or backend_type <> 'client backend'`,
      [APP],
    );
    return { ours: rows.filter((r) => r.ours).map((r) => r.pid), background: rows.filter((r) => !r.ours).map((r) => r.pid) };
  };
  const ticks = (pid: number): number => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 per second)
    } catch {
      return 0;
    }
  };

  async function loop(forSeconds: number): Promise<number[]> {
    const latencies: number[] = [];
    const until = performance.now() + forSeconds * 1000;
    let turn = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const engine = instances[turn++ % instances.length]!;
          const started = performance.now();
          const outcome = await engine.earn(command());
          latencies.push(performance.now() - started);
          if (outcome.status !== 'processed') throw new Error(`unexpected ${outcome.status}`);
        }
      }),
    );
    return latencies;
  }

  const deadlocks = async (): Promise<number> =>
    Number((await admin.query<{ n: string }>(`select deadlocks as n from pg_stat_database where datname = current_database()`)).rows[0]!.n);
  await loop(2);
  const deadlocksBefore = await deadlocks();
  const pids = await postgresPids();
  const oursBefore = pids.ours.map(ticks);
  const backgroundBefore = pids.background.map(ticks);
  const cpuBefore = process.cpuUsage();
  const statementsBefore = statements;
  const started = performance.now();
  const latencies = await loop(seconds);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const oursTicks = pids.ours.map(ticks).reduce((sum, t, i) => sum + t - oursBefore[i]!, 0);
  const backgroundTicks = pids.background.map(ticks).reduce((sum, t, i) => sum + t - backgroundBefore[i]!, 0);
  const count = latencies.length;
  const deadlocked = (await deadlocks()) - deadlocksBefore;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(count - 1, Math.floor(q * count))]!.toFixed(1);
  console.log(
    `${count} earns in ${elapsed.toFixed(1)} s = ${Math.round(count / elapsed)} earns/s at ${concurrency} in flight, ${engines} engine(s), pool ${poolSize ?? 'default'}, lanes ${lanes ?? 'default'}; ` +
      `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ${((statements - statementsBefore) / count).toFixed(2)} statements per earn; ` +
      `CPU per earn: node ${((cpu.user + cpu.system) / count).toFixed(0)} µs, PostgreSQL backends ${((oursTicks * 10_000) / count).toFixed(0)} µs + background processes ${((backgroundTicks * 10_000) / count).toFixed(0)} µs (shared with other users); deadlocks in the database ${deadlocked}`,
  );
  await admin.end();
} finally {
  for (const engine of instances) await engine.close();
  for (const database of databases) await database.close();
  await runPostgresStatement(url, `drop schema if exists ${schema} cascade`);
}
