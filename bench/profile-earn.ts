/**
 * One earn-path target under load with V8 CPU profiles of every thread (main, engine worker,
 * journal writer), for finding where the earn path's CPU goes:
 *
 *   npm run build && BENCH_CPU_PROF=/tmp/prof npx tsx bench/profile-earn.ts
 *   npx tsx bench/profile-summary.ts /tmp/prof      (self time by function and by package)
 *
 * BENCH_DURATION (default 10) seconds at BENCH_CONNECTIONS (default 50) after a 3 s warm-up;
 * GATEWAY_JOURNAL_DAYS=0 in the environment profiles it without the journal. BENCH_PROFILE_POSTGRES=1
 * with DATABASE_URL and REDIS_URL: one gateway on a fresh PostgreSQL schema (dropped afterwards) and
 * Redis's logical database 13 (emptied before and after), sales spread over 300 members, like the
 * benchmark's PostgreSQL round.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { postgresUrlWithSchema, runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { cpuPerRequest, gatewayEnv, startServer } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lg-prof-'));
const seedFile = path.join(dataDir, 'seed.json');
const postgres = process.env.BENCH_PROFILE_POSTGRES === '1' ? postgresTarget() : undefined;
writeFileSync(seedFile, JSON.stringify(postgres?.seed ?? seed));
if (postgres) await runPostgresStatement(postgres.databaseUrl, `create schema ${postgres.schema}`);

const server = await startServer(root, path.join(dataDir, 'gateway.log'), [process.env.BENCH_ENTRY ?? 'gateway/dist/main.js'], {
  ...gatewayEnv(path.join(dataDir, 'data'), seedFile, process.env.BENCH_LOG_LEVEL),
  ...postgres?.env,
});
try {
  await load(server.port, 3, connections, postgres?.members);
  const before = server.cpu();
  const result = await load(server.port, duration, connections, postgres?.members);
  const cpu = cpuPerRequest(before, server.cpu(), result.requests.total);
  console.log(`${result.requests.average} req/s, non-2xx ${result.non2xx}, CPU µs/request by thread: ${JSON.stringify(cpu)}`);
} finally {
  await server.stop();
  if (postgres) {
    await runPostgresStatement(postgres.databaseUrl, `drop schema if exists ${postgres.schema} cascade`);
    postgres.clearRedis();
  }
}

/** The PostgreSQL target: a fresh schema, Redis's database 13, the seed's merchant with 300 members. */
function postgresTarget() {
  const databaseUrl = process.env.DATABASE_URL;
  const givenRedisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !givenRedisUrl) throw new Error('BENCH_PROFILE_POSTGRES=1 needs DATABASE_URL and REDIS_URL');
  const redisUrl = new URL(givenRedisUrl);
  redisUrl.pathname = '/13';
  const clearRedis = () => void execFileSync('redis-cli', ['-u', redisUrl.toString(), 'flushdb'], { stdio: 'ignore' });
  clearRedis();
  const schema = `profile_${randomBytes(4).toString('hex')}`;
  const members = Array.from({ length: 300 }, (_, i) => `MBR-B-${String(i).padStart(3, '0')}`);
  const pgSeed = structuredClone(seed);
  pgSeed.merchants[0]!.members = members.map((membershipId, i) => ({
    membershipId,
    phone: `+1555020${String(i).padStart(4, '0')}`,
    email: `member-${i}@example.com`,
    externalId: `crm-${i}`,
    points: 0,
  }));
  const env = { DATABASE_URL: postgresUrlWithSchema(databaseUrl, schema), REDIS_URL: redisUrl.toString(), GATEWAY_SCHEDULER: 'off' };
  return { databaseUrl, schema, members, seed: pgSeed, env, clearRedis };
}
