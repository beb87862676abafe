/**
 * The delivery journal alone (no HTTP, no ledger): what one entry costs the event loop (`record`
 * plus its share of the batch hand-over) and the writer (SQLite: its thread; PostgreSQL: the
 * server), in CPU µs per entry read from /proc per thread. It isolates the journal's part of the
 * earn path's cost that `npm run bench` measures as "journal on" against "journal off".
 *
 *   npx tsx bench/journal.ts            (JOURNAL_ENTRIES=100000; JOURNAL_RANDOM_REQUEST_IDS=1: callers' own
 *                                        random X-Request-IDs instead of the gateway's time-ordered ones;
 *                                        JOURNAL_SEQUENTIAL_TRANSACTIONS=1: ordered transaction ids;
 *                                        JOURNAL_UUID7_TRANSACTIONS=1: UUIDv7 ones (time first, random last);
 *                                        JOURNAL_DROP=index,…: without those indexes;
 *                                        JOURNAL_CACHE_MB=1: the writer's SQLite page cache (default 4);
 *                                        JOURNAL_CONNECTIONS=1000: entries spread over that many connections;
 *                                        JOURNAL_POSTGRES=1 with DATABASE_URL: on PostgreSQL)
 *
 * Then it times the inspector's lookup by transaction id in the journal it wrote, its list with a
 * filter that matches nothing (the bounded search), and the pruning.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, ensureSchema, migrate } from '@loyalty-gateway/storage';
import { runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { timeOrderedUuid } from '../gateway/src/http/request-id.js';
import { createDeliveryJournal, type DeliveryFilter } from '../gateway/src/journal/index.js';
import { gatewayMigrations } from '../gateway/src/stores/gateway-migrations.js';
import { sampleSaleBody } from './journal-sample.js';
import { processesCpu } from './server-process.js';

const TICK_US = 1e6 / 100;
function threads(): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    const raw = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    const us = (Number(fields[11]) + Number(fields[12])) * TICK_US;
    if (tid === String(process.pid)) main += us;
    else others += us;
  }
  return { main, others };
}

const entries = Number(process.env.JOURNAL_ENTRIES ?? 100_000);
const connections = Number(process.env.JOURNAL_CONNECTIONS ?? 1);
const dir = mkdtempSync(path.join(tmpdir(), 'journal-bench-'));
const file = path.join(dir, 'gateway.db');
// JOURNAL_POSTGRES=1 with DATABASE_URL: the journal on a fresh PostgreSQL schema (dropped
// afterwards); "other threads" is then PostgreSQL's processes (the server writes the rows).
const postgresUrl = process.env.JOURNAL_POSTGRES ? process.env.DATABASE_URL : undefined;
if (process.env.JOURNAL_POSTGRES && !postgresUrl) throw new Error('JOURNAL_POSTGRES needs DATABASE_URL');
const schema = `bench_journal_${randomBytes(4).toString('hex')}`;
if (postgresUrl) await ensureSchema({ postgresUrl, postgresSchema: schema });
const database = createDatabase<any>(postgresUrl ? { postgresUrl, postgresSchema: schema } : { sqliteFile: file });
await migrate(database.db, gatewayMigrations);
const journal = await createDeliveryJournal({
  database,
  masterKey: randomBytes(32),
  ...(postgresUrl ? {} : { sqliteFile: file }),
  ...(process.env.JOURNAL_CACHE_MB ? { sqliteCacheMb: Number(process.env.JOURNAL_CACHE_MB) } : {}),
  flushMs: Number(process.env.JOURNAL_FLUSH_MS ?? 250),
  maxBacklog: 1e9,
});
// The writer's thread or port does not hold the event loop (in the gateway the listeners do): this
// timer does while the bench waits on it, else node would exit mid-await.
const keepAlive = setInterval(() => undefined, 1 << 30);
const writerCpu = (): number => (postgresUrl ? processesCpu(['postgres']).postgres! : threads().others);
for (const index of (process.env.JOURNAL_DROP ?? '').split(',').filter(Boolean)) await database.db.schema.dropIndex(index).execute();
const body = sampleSaleBody();

/** Every 10,000th transaction id and request id, looked up at the end (the inspector's filters, a delivery's page). */
const lookups: string[] = [];
const requestLookups: string[] = [];
const sampled = (i: number, id: string, into = lookups): string => {
  if (i % 10_000 === 5_000) into.push(id);
  return id;
};

async function round(n: number) {
  await journal.flush();
  const before = threads();
  const writerBefore = writerCpu();
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) {
    // As the journal's hook records a request: a generated id is a UUIDv7 of the millisecond it was received.
    const now = Date.now();
    journal.record(
      {
        requestId: sampled(i, process.env.JOURNAL_RANDOM_REQUEST_IDS ? randomUUID() : timeOrderedUuid(now), requestLookups),
        receivedAt: new Date(now),
        method: 'POST',
        route: '/webhooks/generic',
        vendor: 'acme-pos',
        storeId: 'store-1',
        connectionId: `c0f8a7d2-0000-4000-8000-${String((i % connections) + 1).padStart(12, '0')}`,
        eventType: 'sale.completed',
        // Vendors' transaction ids are random (the earn path's load sends UUIDs): each lands at a
        // random page of the transaction index. JOURNAL_SEQUENTIAL_TRANSACTIONS=1: ordered ids instead.
        transactionId: sampled(
          i,
          process.env.JOURNAL_SEQUENTIAL_TRANSACTIONS
            ? `T-${i}`
            : process.env.JOURNAL_UUID7_TRANSACTIONS
              ? timeOrderedUuid()
              : randomUUID(),
        ),
        status: 200,
        outcome: 'processed',
        durationMs: 3.2,
        skewSeconds: 0.4,
      },
      body,
    );
    // The earn path records ~4,000 entries a second: let the flush timer run between slices.
    if (i % 1_000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  await journal.flush();
  const after = threads();
  return {
    main: (after.main - before.main) / n,
    others: (writerCpu() - writerBefore) / n,
    ms: Number(process.hrtime.bigint() - started) / 1e6,
  };
}

await round(10_000); // warm-up
const measured = await round(entries);
console.log(
  `${entries} entries: event loop ${measured.main.toFixed(1)} µs/entry, other threads ${measured.others.toFixed(1)} µs/entry (${measured.ms.toFixed(0)} ms)`,
);
// On PostgreSQL, the statistics autovacuum would have taken of a journal this size by now: the
// plans of the lookups below depend on them (a journal never analyzed yet gets sequential scans).
if (postgresUrl) await runPostgresStatement(postgresUrl, `analyze ${schema}.gw_deliveries`);
/** Each id looked up through the inspector's list (each must find its one entry): ms per lookup. */
async function timeLookups(what: string, ids: readonly string[], filterOf: (id: string) => DeliveryFilter): Promise<void> {
  const started = process.hrtime.bigint();
  for (const id of ids) {
    const found = (await journal.list(filterOf(id))).deliveries.length;
    if (found !== 1) throw new Error(`${what} ${id}: ${found} entries`);
  }
  console.log(`lookup by ${what}: ${(Number(process.hrtime.bigint() - started) / 1e6 / ids.length).toFixed(2)} ms (${ids.length} lookups)`);
}
// By transaction id in a journal of this size (the inspector's filter); by request id (admin
// deliveries show, the console): a generated one by its time (migration 0016), a caller's own
// (JOURNAL_RANDOM_REQUEST_IDS=1) through the request index.
await timeLookups('transaction id', lookups, (transactionId) => ({ transactionId }));
await timeLookups('request id', requestLookups, (requestId) => ({ requestId }));
// The inspector's list with a filter no index serves and nothing to find: its search stops at its
// bound (20,000 entries a statement, 10 statements) instead of reading the whole journal.
for (const filter of [{ store: 'no-such-store' }, { status: 500 }]) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const page = await journal.list(filter);
  const used = process.cpuUsage(cpu);
  console.log(
    `list ${JSON.stringify(filter)}: ${page.deliveries.length} found, ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms (${((used.user + used.system) / 1000).toFixed(1)} ms of the event loop's CPU), searched back to ${page.searchedBackTo ?? 'the start'}`,
  );
}
// One delivery's page (admin deliveries show, the console): the entry by request id and its replays.
{
  const newest = (await journal.list({ limit: 1 })).deliveries[0]!;
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const found = await journal.get(newest.requestId);
  const replays = await journal.replaysOf(found!.id);
  const used = process.cpuUsage(cpu);
  console.log(
    `one delivery and its replays (${replays.length}): ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms (${((used.user + used.system) / 1000).toFixed(1)} ms of the event loop's CPU)`,
  );
}
// The hourly pruning: how long it takes, and how much of it the event loop spends (its CPU time).
const pruneStarted = process.hrtime.bigint();
const pruneCpu = threads().main;
const pruned = await journal.prune();
console.log(
  `prune: ${(Number(process.hrtime.bigint() - pruneStarted) / 1e6).toFixed(0)} ms, of it ${((threads().main - pruneCpu) / 1000).toFixed(0)} ms on the event loop; ${pruned} entries removed (at most 100,000 kept per connection)`,
);
await journal.close();
clearInterval(keepAlive);
await database.close();
if (postgresUrl) await runPostgresStatement(postgresUrl, `drop schema ${schema} cascade`);
rmSync(dir, { recursive: true, force: true });
