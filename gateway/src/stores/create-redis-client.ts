import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';

/**
 * One ioredis client for the gateway's cross-instance state (idempotency cache, rate limits,
 * catalog-pull lock). Choices:
 * - connect at once (lazyConnect false) so a wrong REDIS_URL shows at start-up, not on the first sale;
 * - an offline queue only until the first connection is ready (commands issued at start-up wait
 *   for it); after that, while Redis is unreachable a command fails at once and callers treat it
 *   as a cache miss or an open limit (the ledger still decides): queued commands made every request
 *   wait up to a second per Redis call while it was down (a load test served a few requests a
 *   second instead of hundreds);
 * - at most 2 reconnect attempts per command (maxRetriesPerRequest) and 1 s per command
 *   (commandTimeout) for a Redis that is connected but slow;
 * - reconnect forever with a capped backoff, so the gateway recovers by itself when Redis returns;
 * - auto-pipelining: the commands issued in one turn of the event loop leave in one write and
 *   their replies come back in one read, instead of one system call and one wake-up of Redis per
 *   command. The hot calls (rate-limit hits, idempotency-cache reads and writes) go further: a
 *   turn's calls are folded into few commands of one pipeline (redis-turn.ts).
 *
 * ioredis is loaded here, on first use: a gateway without REDIS_URL never loads it (see pg in
 * storage's database.ts).
 */
export function createRedisClient(url: string): IORedis.Redis {
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof IORedis;
  const client = new RedisClient(url, {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 2,
    commandTimeout: 1_000,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2_000),
    enableAutoPipelining: true,
  });
  // Without a listener ioredis prints every connection error; the callers see failures per command.
  client.on('error', () => {});
  // ioredis reads this option when it sends: from now on a lost connection fails commands at once.
  client.once('ready', () => {
    client.options.enableOfflineQueue = false;
  });
  return client;
}
