/**
 * One earn-path target under load with V8 CPU profiles of every thread (main, engine worker,
 * journal writer), for finding where the earn path's CPU goes:
 *
 *   npm run build && BENCH_CPU_PROF=/tmp/prof npx tsx bench/profile-earn.ts
 *   npx tsx bench/profile-summary.ts /tmp/prof      (self time by function and by package)
 *   BENCH_ALLOC_PROF=/tmp/alloc npx tsx bench/profile-earn.ts   (where the event loop allocates, bench/alloc-sampler.cjs;
 *                                                 the summary then gives bytes per request)
 *
 * BENCH_DURATION (default 10) seconds at BENCH_CONNECTIONS (default 50) after a 3 s warm-up;
 * GATEWAY_JOURNAL_DAYS=0 in the environment profiles it without the journal. BENCH_PROFILE_POSTGRES=1
 * with DATABASE_URL and REDIS_URL: one gateway on the store of the benchmark's PostgreSQL round (a
 * fresh schema, a free Redis database, sales spread over 300 members; bench/postgres-target.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresTarget } from './postgres-target.js';
import { cpuPerRequest, gatewayEnv, startServer } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lg-prof-'));
const seedFile = path.join(dataDir, 'seed.json');
if (process.env.BENCH_ALLOC_PROF) mkdirSync(process.env.BENCH_ALLOC_PROF, { recursive: true });
const postgres = process.env.BENCH_PROFILE_POSTGRES === '1' ? await postgresTarget(...scaleOutUrls()) : undefined;
writeFileSync(seedFile, JSON.stringify(postgres?.seed ?? seed));

const server = await startServer(root, path.join(dataDir, 'gateway.log'), [process.env.BENCH_ENTRY ?? 'gateway/dist/main.js'], {
  ...gatewayEnv(path.join(dataDir, 'data'), seedFile, process.env.BENCH_LOG_LEVEL),
  ...postgres?.env,
});
try {
  const warmUp = await load(server.port, 3, connections, postgres?.members);
  const before = server.cpu();
  const result = await load(server.port, duration, connections, postgres?.members);
  // The allocation profiles cover the process's whole life: their summary divides by every request.
  if (process.env.BENCH_ALLOC_PROF)
    writeFileSync(path.join(process.env.BENCH_ALLOC_PROF, 'requests'), String(warmUp.requests.total + result.requests.total));
  const cpu = cpuPerRequest(before, server.cpu(), result.requests.total);
  console.log(
    `${result.requests.average} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, CPU µs/request by thread: ${JSON.stringify(cpu)}`,
  );
} finally {
  await server.stop();
  await postgres?.dispose();
}

function scaleOutUrls(): [string, string] {
  const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } = process.env;
  if (!databaseUrl || !redisUrl) throw new Error('BENCH_PROFILE_POSTGRES=1 needs DATABASE_URL and REDIS_URL');
  return [databaseUrl, redisUrl];
}
