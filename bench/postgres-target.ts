import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { postgresUrlWithSchema, runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { seed } from './seed.js';

/**
 * A free Redis for a run: an empty logical database of REDIS_URL's server (the highest-numbered
 * empty one of 15 to 1), emptied again after the run. A run's idempotency keys are kept a day and
 * its rate counters a minute; left in a shared Redis, a day of rounds held 1.7 million keys, and a
 * test's KEYS then outlasted its client's 1 s command timeout. Without an empty one the run uses
 * REDIS_URL as given and leaves its keys to expire.
 */
export function freeRedis(redisUrl: string): { url: string; clear(): void } {
  const redisCli = (url: string, ...args: string[]) =>
    execFileSync('redis-cli', ['-u', url, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  for (let db = 15; db >= 1; db--) {
    const url = new URL(redisUrl);
    url.pathname = `/${db}`;
    if (redisCli(url.toString(), 'dbsize') === '0') return { url: url.toString(), clear: () => void redisCli(url.toString(), 'flushdb') };
  }
  return { url: redisUrl, clear: () => undefined };
}

/**
 * The scale-out targets' store (the benchmark's PostgreSQL round, `bench/profile-earn.ts` with
 * BENCH_PROFILE_POSTGRES=1): a fresh schema of DATABASE_URL, a free Redis, and the benchmarks'
 * seed with its sales spread over 300 members (one member's wallet row would serialise every
 * earn). `env` is what the gateways run with; `dispose` drops the schema and empties the Redis.
 */
export async function postgresTarget(databaseUrl: string, redisUrl: string) {
  const redis = freeRedis(redisUrl);
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await runPostgresStatement(databaseUrl, `create schema ${schema}`);
  const members = Array.from({ length: 300 }, (_, i) => `MBR-B-${String(i).padStart(3, '0')}`);
  const pgSeed = structuredClone(seed);
  pgSeed.merchants[0]!.members = members.map((membershipId, i) => ({
    membershipId,
    phone: `+1555020${String(i).padStart(4, '0')}`,
    email: `member-${i}@example.com`,
    externalId: `crm-${i}`,
    points: 0,
  }));
  return {
    members,
    seed: pgSeed,
    env: { DATABASE_URL: postgresUrlWithSchema(databaseUrl, schema), REDIS_URL: redis.url, GATEWAY_SCHEDULER: 'off' },
    async dispose() {
      await runPostgresStatement(databaseUrl, `drop schema if exists ${schema} cascade`);
      redis.clear();
    },
  };
}
