/**
 * Local microbenchmark of the embedded engine's earn path on a file-backed SQLite database (WAL,
 * synchronous=NORMAL), as the gateway runs it. Not a test. Run: npx tsx bench-earn.ts [count]
 * BENCH_RANDOM_TRANSACTIONS=1: random (UUID) transaction ids, as Square, Clover and many generic
 * vendors send them, instead of ordered ones (`tx-<kind>-<n>`). BENCH_SQLITE_CACHE_MB: the connection's
 * page cache (default storage's SQLITE_DEFAULT_CACHE_MB; the gateway's embedded engine uses
 * GATEWAY_SQLITE_CACHE_MB, 2 by default).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EarnCommand } from '@loyalty-gateway/core';
import { createDatabase, migrate } from '@loyalty-gateway/storage';
import { createEmbeddedEngine, engineMigrations } from '../src/index.js';
import { IDS, SCOPE, testSeed } from '../src/testing/fixture.js';

const total = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'engine-bench-'));
const cacheMb = process.env.BENCH_SQLITE_CACHE_MB;
const database = createDatabase({ sqliteFile: join(dir, 'engine.sqlite'), ...(cacheMb ? { sqliteCacheMb: Number(cacheMb) } : {}) });
await migrate(database.db, engineMigrations);
const engine = await createEmbeddedEngine({ database });
const seed = testSeed();
for (let i = 3; i < 10_000; i++)
  seed.merchants[0]!.members.push({ membershipId: `MBR-${i}`, phone: `+1555${String(i).padStart(7, '0')}`, points: 10 });
await engine.applySeed(seed);

const command = (i: number, kind: number): EarnCommand => ({
  ...SCOPE,
  eventId: `e-${i}`,
  occurredAt: '2026-01-15T10:00:00Z',
  store: { id: SCOPE.source.storeId },
  transaction: {
    id: process.env.BENCH_RANDOM_TRANSACTIONS ? randomUUID() : `tx-${kind}-${i}`,
    totalMinor: 1250 + (i % 500),
    currency: 'USD',
    customer: { type: 'phone', value: `+1555${String(3 + (i % 9_990)).padStart(7, '0')}` },
    items: [
      { name: 'Latte', sku: 'COF-LATTE', quantity: 1, unitPriceMinor: 450 },
      { name: 'Muffin', quantity: 1, unitPriceMinor: 300 },
    ],
    discountCodes: [],
  },
});

async function run(label: string, concurrency: number, kind: number): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < total; i += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, total - i) }, (_, k) => engine.earn(command(i + k, kind))));
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `${label}: ${total} earns in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} earns/s, ${((used.user + used.system) / total).toFixed(1)} µs CPU per earn`,
  );
}

await run('sequential, member + stamp', 1, 1);
await run('32 in flight, member + stamp', 32, 2);
const dupStart = performance.now();
for (let i = 0; i < total; i++) await engine.earn(command(i, 1));
console.log(`duplicates: ${Math.round(total / ((performance.now() - dupStart) / 1000))} earns/s`);
void IDS;
await engine.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
