/**
 * The history of order reconciliations as it grows (a run per featured connection every 15
 * minutes: 96 a day each), before and after migration 0011 in the same run: a connection's
 * checkpoint (read before each of its runs), the runs' list newest first (admin, console), and
 * the pruning of GATEWAY_RUNS_DAYS.
 *
 *   npx tsx bench/run-history.ts      (RUNS=1000000 over RUNS_CONNECTIONS=300; RUNS_POSTGRES=1 with DATABASE_URL: on PostgreSQL;
 *                                      RUNS_ON_EVENT_LOOP=1 on SQLite: the pruning's deletes on the event loop's
 *                                      connection, as before they ran on the journal's writer thread)
 *
 * The rows are seeded on a schema migrated through 0010; the lookups are timed, 0011 is applied,
 * and they are timed again; then the history is pruned to its last 30 days.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDatabase, ensureSchema, migrate, type MigrationSet } from '@loyalty-gateway/storage';
import { runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { sql } from 'kysely';
import { createDeliveryJournal } from '../gateway/src/journal/index.js';
import { createReconcileRunStore, prunableRunsQuery } from '../gateway/src/reconcile/reconcile-run-store.js';
import { deleteRuns, RUN_HISTORY_CHUNK } from '../gateway/src/stores/run-history.js';
import { gatewayMigrations } from '../gateway/src/stores/gateway-migrations.js';

const total = Number(process.env.RUNS ?? 1_000_000);
const connections = Number(process.env.RUNS_CONNECTIONS ?? 300);
const postgresUrl = process.env.RUNS_POSTGRES ? process.env.DATABASE_URL : undefined;
if (process.env.RUNS_POSTGRES && !postgresUrl) throw new Error('RUNS_POSTGRES needs DATABASE_URL');
const dir = mkdtempSync(path.join(tmpdir(), 'run-history-bench-'));
const sqliteFile = path.join(dir, 'gateway.db');
const schema = `bench_runs_${randomBytes(4).toString('hex')}`;
if (postgresUrl) await ensureSchema({ postgresUrl, postgresSchema: schema });
const database = createDatabase<any>(postgresUrl ? { postgresUrl, postgresSchema: schema } : { sqliteFile });
const through0010: MigrationSet = {
  ...gatewayMigrations,
  migrations: Object.fromEntries(Object.entries(gatewayMigrations.migrations).filter(([name]) => name < '0011')),
};
await migrate(database.db, through0010);

// Every connection's runs, 15 minutes apart, ending now; one in ten failed, as a vendor's outages would.
const QUARTER = 15 * 60 * 1000;
const perConnection = Math.ceil(total / connections);
const end = Date.now();
const ids = Array.from({ length: connections }, (_, i) => `conn-${String(i).padStart(4, '0')}`);
const seedStarted = Date.now();
let batch: unknown[] = [];
const flush = async () => {
  if (batch.length > 0) await database.db.insertInto('gw_reconcile_runs').values(batch).execute();
  batch = [];
};
for (let n = perConnection - 1; n >= 0; n -= 1) {
  for (const connectionId of ids) {
    const at = end - n * QUARTER;
    batch.push({
      id: randomUUID(),
      vendor: 'clover',
      connection_id: connectionId,
      trigger: 'schedule',
      slot: new Date(at).toISOString(),
      status: n % 10 === 3 ? 'failed' : 'succeeded',
      started_at: at,
      finished_at: at + 2_000,
      window_since: at - QUARTER,
      window_until: at,
      pages: 1,
      found: 3,
      recovered: 0,
      duplicates: 3,
      failed: 0,
      error: null,
    });
    if (batch.length === 1_000) await flush();
  }
}
await flush();
if (postgresUrl) await runPostgresStatement(postgresUrl, `analyze ${schema}.gw_reconcile_runs`);
console.log(
  `${perConnection * connections} runs over ${connections} connections (${((perConnection * QUARTER) / 86_400_000).toFixed(0)} days) seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s, ${postgresUrl ? 'PostgreSQL' : 'SQLite'}`,
);

const runs = await createReconcileRunStore({ database });
async function timed(label: string, times: number, work: (i: number) => Promise<unknown>) {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i += 1) await work(i);
  const ms = Number(process.hrtime.bigint() - started) / 1e6 / times;
  const used = process.cpuUsage(cpu);
  console.log(`  ${label}: ${ms.toFixed(2)} ms (${((used.user + used.system) / 1000 / times).toFixed(2)} ms of this process's CPU)`);
}
async function lookups() {
  await timed('a connection’s checkpoint (mean of 50)', 50, async (i) => {
    if (!(await runs.checkpoint(ids[(i * 7) % connections]!))) throw new Error('no checkpoint');
  });
  await timed('the 100 newest runs (mean of 5)', 5, () => runs.list({ limit: 100 }));
  await timed('a vendor’s 100 newest runs (mean of 5)', 5, () => runs.list({ vendor: 'clover', limit: 100 }));
}
console.log('migrated through 0010:');
await lookups();
const migrating = process.hrtime.bigint();
await migrate(database.db, gatewayMigrations);
if (postgresUrl) await runPostgresStatement(postgresUrl, `analyze ${schema}.gw_reconcile_runs`);
console.log(`migration 0011: ${(Number(process.hrtime.bigint() - migrating) / 1e6).toFixed(0)} ms; then:`);
await lookups();
// RUNS_CHUNK: rows per delete statement (the store's RUN_HISTORY_CHUNK by default). On SQLite the
// gateway runs them on the delivery journal's writer thread (its own connection); with
// RUNS_ON_EVENT_LOOP=1 here on the event loop's connection, where the loop's longest stall is the
// longest statement (better-sqlite3 holds the loop for it).
const journal =
  postgresUrl || process.env.RUNS_ON_EVENT_LOOP === '1'
    ? undefined
    : await createDeliveryJournal({ database, masterKey: randomBytes(32), sqliteFile });
const chunk = Number(process.env.RUNS_CHUNK ?? RUN_HISTORY_CHUNK);
const stalls = monitorEventLoopDelay({ resolution: 1 });
stalls.enable();
const pruning = process.hrtime.bigint();
const cpu = process.cpuUsage();
const keepDays = Number(process.env.RUNS_KEEP_DAYS ?? 30);
const removed = await deleteRuns(database.db, 'gw_reconcile_runs', prunableRunsQuery(database.db, new Date(end - keepDays * 86_400_000)), {
  chunk,
  execute: journal?.runStatement,
});
const used = process.cpuUsage(cpu);
stalls.disable();
const left = await database.db
  .selectFrom('gw_reconcile_runs')
  .select(sql<number>`count(*)`.as('n'))
  .executeTakeFirstOrThrow();
console.log(
  `pruning to ${keepDays} days: ${removed} runs deleted in ${(Number(process.hrtime.bigint() - pruning) / 1e6).toFixed(0)} ms (${((used.user + used.system) / 1000).toFixed(0)} ms of this process's CPU, ${chunk} a statement on ${journal ? "the journal writer's thread" : "the event loop's connection"}, the event loop's delay p99 ${(stalls.percentile(99) / 1e6).toFixed(1)} ms, longest ${(stalls.max / 1e6).toFixed(0)} ms), ${Number(left.n)} left`,
);
await journal?.close();
await database.close();
if (postgresUrl) await runPostgresStatement(postgresUrl, `drop schema ${schema} cascade`);
rmSync(dir, { recursive: true, force: true });
