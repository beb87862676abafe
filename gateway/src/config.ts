import {
  commitLanesEnv,
  ConfigError,
  logLevelEnv,
  optionalEnv,
  parseEnv,
  portEnv,
  sqliteCacheMbEnv,
  urlEnv,
  wholeNumberEnv,
} from '@loyalty-gateway/core';
import { z } from 'zod';
import { ENGINE_CALL } from './engine-client/engine-call-policy.js';
import { minimumMainHeapMb, minimumMainHeapText } from './memory/memory-bounds.js';

const optional = optionalEnv;
const port = portEnv;
const url = urlEnv;

export const GATEWAY_ENVIRONMENTS = ['development', 'uat', 'beta', 'production'] as const;

/**
 * The gateway's whole configuration, parsed once from the environment at boot.
 * HOST defaults to 127.0.0.1 in development (the demo sandbox prints its secret; nothing should
 * reach it from the network by accident) and to 0.0.0.0 elsewhere (containers, load balancers).
 */
export const GatewayConfig = z
  .object({
    PORT: optional(port).default(3000),
    HOST: optional(z.string().min(1)),
    GATEWAY_ENV: optional(z.enum(GATEWAY_ENVIRONMENTS, { message: `must be one of ${GATEWAY_ENVIRONMENTS.join(', ')}` })).default(
      'development',
    ),
    GATEWAY_DATA_DIR: optional(z.string()).default('./.data'),
    GATEWAY_SEED_FILE: optional(z.string()),
    GATEWAY_MASTER_KEY: optional(z.string()),
    DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
    REDIS_URL: optional(url(['redis:', 'rediss:'])),
    /** A remote loyalty engine (`npm run engine`) instead of the embedded one. */
    LOYALTY_ENGINE_URL: optional(url(['http:', 'https:'])),
    /** Bearer token the engine service expects (its ENGINE_TOKEN). */
    LOYALTY_ENGINE_TOKEN: optional(z.string().min(1)),
    /** Per-call deadline towards a remote engine (the engine-call policy's). */
    LOYALTY_ENGINE_TIMEOUT_MS: optional(
      z.coerce.number({ message: 'must be a number' }).int().positive({ message: 'must be positive' }),
    ).default(ENGINE_CALL.timeoutMs),
    /**
     * Comma-separated `x-status: coming` endpoints enabled in production (elsewhere they are all on):
     * eligibility, redeem, refund, catalog-sync.
     */
    GATEWAY_FEATURES: optional(z.string())
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((f) => f.trim())
          .filter((f) => f !== ''),
      )
      .pipe(
        z.array(
          z.enum(['eligibility', 'redeem', 'refund', 'catalog-sync'], {
            message: 'must list only eligibility, redeem, refund, catalog-sync',
          }),
        ),
      ),
    /** Bearer token of the /admin API. Required in production; unset in development a generated one is used (boot/development-admin-token.ts); unset in uat and beta /admin is off. */
    GATEWAY_ADMIN_TOKEN: optional(z.string().min(24, { message: 'must be at least 24 characters' })),
    /** The public base URL vendors reach (webhook URLs on the directory's setup pages). */
    GATEWAY_PUBLIC_URL: optional(url(['http:', 'https:'])),
    /** Scheduled catalog pulls of featured vendors (cron schedules on croner): on by default. */
    GATEWAY_SCHEDULER: optional(z.enum(['on', 'off'], { message: 'must be on or off' })).default('on'),
    /** HTTPS listener that terminates TLS itself (mTLS `direct` mode): port, certificate and key files. */
    GATEWAY_TLS_PORT: optional(port),
    GATEWAY_TLS_CERT_FILE: optional(z.string()),
    GATEWAY_TLS_KEY_FILE: optional(z.string()),
    GATEWAY_RATE_LIMIT: optional(wholeNumberEnv().positive({ message: 'must be a positive number of requests per minute' })).default(600),
    /** POST /v1/earn/preview per minute per connection: a budget of its own, beside GATEWAY_RATE_LIMIT's. */
    GATEWAY_PREVIEW_RATE_LIMIT: optional(
      wholeNumberEnv().positive({ message: 'must be a positive number of requests per minute' }),
    ).default(600),
    /** GET /v1/deliveries per minute per connection: a budget of its own (each read may examine thousands of journal entries). */
    GATEWAY_DELIVERY_LOG_RATE_LIMIT: optional(
      wholeNumberEnv().positive({ message: 'must be a positive number of requests per minute' }),
    ).default(60),
    /** Refused requests (401/403) one client address may cause per minute before it is answered 429. */
    GATEWAY_REFUSED_LIMIT: optional(
      wholeNumberEnv().positive({ message: 'must be a positive number of refused requests per minute' }),
    ).default(120),
    /**
     * Proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For names the client address
     * (request log, per-address limits). None by default: the socket's address is the client's.
     */
    GATEWAY_TRUSTED_PROXIES: optional(z.string()).transform((value) =>
      (value ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    ),
    /** Longest a whole request (headers and body) may take to arrive; then 408 request_timeout. */
    GATEWAY_REQUEST_TIMEOUT_MS: optional(
      wholeNumberEnv('milliseconds')
        .min(1_000, { message: 'must be at least 1000 (ms)' })
        .max(600_000, { message: 'must be at most 600000 (ms)' }),
    ).default(30_000),
    /** Open connections one listener accepts; more are refused at once (a busy load balancer opens others). */
    GATEWAY_MAX_CONNECTIONS: optional(wholeNumberEnv().min(16, { message: 'must be at least 16' })).default(4_096),
    /** A second listener serving GET /metrics without authentication (for a Prometheus scraper). */
    GATEWAY_METRICS_PORT: optional(port),
    /** Its address: loopback unless an operator opens it to a private network. */
    GATEWAY_METRICS_HOST: optional(z.string().min(1)).default('127.0.0.1'),
    /**
     * Hosts (names or addresses, comma-separated) vendor API calls may reach even on a private or
     * loopback address, over http: or https: (an on-premises ERP, a sandbox). Metadata addresses never.
     */
    GATEWAY_OUTBOUND_ALLOW: optional(z.string()).transform((value) =>
      (value ?? '')
        .split(',')
        .map((host) =>
          host
            .trim()
            .toLowerCase()
            .replace(/^\[|\]$/g, ''),
        )
        .filter((host) => host !== ''),
    ),
    /** PostgreSQL: the embedded engine's group-commit lanes (default 1; more for a PostgreSQL across a network). */
    GATEWAY_COMMIT_LANES: optional(commitLanesEnv),
    /**
     * The in-process idempotency cache's memory bound, in MiB (without REDIS_URL), outside V8's heap.
     * 4 MiB hold the last ~6,800–13,900 sales (8 held ~7,000–14,000 while the entries were JS strings in the heap).
     */
    GATEWAY_IDEMPOTENCY_CACHE_MB: optional(
      wholeNumberEnv('MiB').min(1, { message: 'must be at least 1 (MiB)' }).max(65_536, { message: 'must be at most 65536 (MiB)' }),
    ).default(4),
    /**
     * The main thread's V8 old-generation bound in MiB, applied by the production start
     * (gateway/bin/start). Default: the measured working set (MAIN_WORKING_SET_MB,
     * memory/memory-bounds.ts), plus the engine's bound on PostgreSQL, where it runs on the event loop.
     */
    GATEWAY_HEAP_MB: optional(wholeNumberEnv('MiB').max(1_048_576, { message: 'must be at most 1048576 (MiB)' })),
    /**
     * SQLite: the page cache of each of the gateway's connections (store, engine, journal writer,
     * the ledger's background checkpoints), in MiB. 2 by default, half of storage's
     * SQLITE_DEFAULT_CACHE_MB (the engine service's): through the
     * production start the process peaks 6 MiB lower under load at the same earns/s, and the journal
     * writer's µs per entry did not move (docs/benchmarks.md).
     */
    GATEWAY_SQLITE_CACHE_MB: optional(sqliteCacheMbEnv).default(2),
    /** Days the delivery journal keeps entries (0: no journal). */
    GATEWAY_JOURNAL_DAYS: optional(
      wholeNumberEnv('days').min(0, { message: 'must be 0 (off) or more days' }).max(366, { message: 'must be at most 366 days' }),
    ).default(14),
    /**
     * MiB the delivery journal may take in all (its rows' text and an estimate of their indexes):
     * past it the oldest entries are pruned before their days are up (gateway_journal_pruned_early_total).
     */
    GATEWAY_JOURNAL_MB: optional(
      wholeNumberEnv('MiB').min(16, { message: 'must be at least 16 MiB' }).max(1_048_576, { message: 'must be at most 1048576 MiB' }),
    ).default(2048),
    /**
     * SQLite with the embedded engine: where the delivery journal's writer runs. `thread` (default):
     * a thread of its own. `engine`: on the engine's thread, ~10 MiB less resident (no V8 isolate of
     * its own) for ~4 % fewer earns/s and a p99 ~11 % higher under full load, measured through the
     * production start (its batches and checkpoints take turns with the ledger's; docs/benchmarks.md).
     */
    GATEWAY_JOURNAL_WRITER: optional(z.enum(['thread', 'engine'], { message: 'must be thread or engine' })).default('thread'),
    /** Days the history of catalog pulls and order reconciliations is kept (each connection's reconciliation checkpoint stays). */
    GATEWAY_RUNS_DAYS: optional(
      wholeNumberEnv('days').min(1, { message: 'must be at least 1 day' }).max(3660, { message: 'must be at most 3660 days' }),
    ).default(90),
    LOG_LEVEL: optional(logLevelEnv).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.GATEWAY_ENV === 'production' && !config.GATEWAY_ADMIN_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['GATEWAY_ADMIN_TOKEN'],
        message: 'is required in production (the /admin API must be authenticated)',
      });
    }
    if (config.GATEWAY_HEAP_MB !== undefined && config.GATEWAY_HEAP_MB < minimumMainHeapMb(config)) {
      ctx.addIssue({
        code: 'custom',
        path: ['GATEWAY_HEAP_MB'],
        message: `must be at least ${minimumMainHeapText(config)}: the gateway's working set`,
      });
    }
    if (config.GATEWAY_TLS_PORT !== undefined && (!config.GATEWAY_TLS_CERT_FILE || !config.GATEWAY_TLS_KEY_FILE)) {
      ctx.addIssue({ code: 'custom', path: ['GATEWAY_TLS_PORT'], message: 'needs GATEWAY_TLS_CERT_FILE and GATEWAY_TLS_KEY_FILE' });
    }
  })
  .transform(({ HOST, ...rest }) => ({
    ...rest,
    HOST: HOST ?? (rest.GATEWAY_ENV === 'development' ? '127.0.0.1' : '0.0.0.0'),
  }));
export type GatewayConfig = z.infer<typeof GatewayConfig>;

export { ConfigError };

/** Parse the environment once. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return parseEnv(GatewayConfig, env);
}
