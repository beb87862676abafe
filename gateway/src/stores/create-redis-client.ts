import { Redis } from 'ioredis';

/**
 * One ioredis client for the gateway's cross-instance state (idempotency cache, rate limits,
 * catalog-pull lock). Choices:
 * - connect at once (lazyConnect false) so a wrong REDIS_URL shows at start-up, not on the first sale;
 * - keep the offline queue: a command issued during a brief outage or failover waits for the
 *   reconnect instead of failing at once...
 * - ...but only for 2 reconnect attempts (maxRetriesPerRequest) and at most 1 s per command
 *   (commandTimeout): a request must not hang behind a dead Redis; callers treat the failure as a
 *   cache miss (the ledger still decides) or a 5xx;
 * - reconnect forever with a capped backoff, so the gateway recovers by itself when Redis returns.
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 2,
    commandTimeout: 1_000,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2_000),
  });
  // Without a listener ioredis prints every connection error; the callers see failures per command.
  client.on('error', () => {});
  return client;
}
