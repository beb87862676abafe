/**
 * What previews cost real earns: a closed loop of BENCH_CONCURRENCY earns in flight (default 32)
 * for BENCH_SECONDS (default 8) alone, then the same beside a closed loop of BENCH_PREVIEWS
 * previews in flight (default 8) of new sales of the same members (each a full earn's work, rolled
 * back), alternated twice (A B A B: the machine is shared, compare within a run). Reports earns/s
 * and earn latency p50/p99 of each phase, and the previews answered per second.
 *
 *   npx tsx bench/preview-impact.ts                                   # SQLite file (WAL), as the gateway's worker runs it
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/preview-impact.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EarnCommand } from '@loyalty-gateway/core';
import { createDatabase, ensureSchema, migrate } from '@loyalty-gateway/storage';
import { runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { createEmbeddedEngine, engineMigrations } from '../src/index.js';
import { SCOPE, testSeed } from '../src/testing/fixture.js';

const url = process.env.DATABASE_URL;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const previewsInFlight = Number(process.env.BENCH_PREVIEWS ?? 8);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const schema = `bench_preview_${randomBytes(4).toString('hex')}`;
const dir = url ? null : mkdtempSync(join(tmpdir(), 'preview-bench-'));
if (url) await ensureSchema({ postgresUrl: url, postgresSchema: schema });
const database = url
  ? createDatabase({ postgresUrl: url, postgresSchema: schema })
  : createDatabase({ sqliteFile: join(dir!, 'engine.sqlite') });
try {
  await migrate(database.db, engineMigrations);
  const engine = await createEmbeddedEngine({ database });
  const seed = testSeed();
  for (let i = 3; i < 2_000; i++)
    seed.merchants[0]!.members.push({ membershipId: `MBR-${i}`, phone: `+1555${String(i).padStart(7, '0')}`, points: 10 });
  await engine.applySeed(seed);

  let sequence = 0;
  const command = (kind: string): EarnCommand => {
    const n = sequence++;
    return {
      ...SCOPE,
      eventId: `e-${n}`,
      occurredAt: '2026-01-15T10:00:00Z',
      store: { id: SCOPE.source.storeId },
      transaction: {
        id: `tx-${kind}-${n}`,
        totalMinor: 1250 + (n % 500),
        currency: 'USD',
        customer: { type: 'phone', value: `+1555${String(3 + (n % 1_990)).padStart(7, '0')}` },
        items: [{ name: 'Latte', sku: 'COF-LATTE', quantity: 1, unitPriceMinor: 450 }],
        discountCodes: [],
      },
    };
  };

  async function phase(withPreviews: boolean): Promise<string> {
    const latencies: number[] = [];
    let previews = 0;
    const until = performance.now() + seconds * 1000;
    const earns = Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        if ((await engine.earn(command('earn'))).status !== 'processed') throw new Error('an earn was not processed');
        latencies.push(performance.now() - started);
      }
    });
    const previewing = withPreviews
      ? Array.from({ length: previewsInFlight }, async () => {
          while (performance.now() < until) {
            if ((await engine.previewEarn(command('preview'))).status !== 'processed') throw new Error('a preview was not would-process');
            previews++;
          }
        })
      : [];
    await Promise.all([...earns, ...previewing]);
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
    return (
      `${withPreviews ? 'with previews' : 'earns alone  '}: ${Math.round(latencies.length / seconds)} earns/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms` +
      (withPreviews ? `; ${Math.round(previews / seconds)} previews/s (${previewsInFlight} in flight)` : '')
    );
  }

  await phase(false); // warm-up
  console.log(`${url ? 'PostgreSQL' : 'SQLite'}, ${concurrency} earns in flight, ${seconds} s a phase`);
  for (const withPreviews of [false, true, false, true]) console.log(await phase(withPreviews));
  await engine.close();
} finally {
  await database.close();
  if (url) await runPostgresStatement(url, `drop schema if exists ${schema} cascade`);
  if (dir) rmSync(dir, { recursive: true, force: true });
}
