import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';
import { ConfigError } from '@loyalty-gateway/core';

/**
 * The V8 heap bounds of one gateway process, derived from its configuration in this one place:
 * the main thread's (flags the production start passes to node, gateway/bin/start) and the two
 * worker threads' (`resourceLimits`). All in MiB. The in-process idempotency cache is not in any of
 * them: it lives outside V8's heap (stores/off-heap-ttl-map.ts), bounded by GATEWAY_IDEMPOTENCY_CACHE_MB.
 */

/**
 * What the main thread's old generation holds: compiled code, the app's modules and the objects
 * of requests in flight. Measured with `bench/memory.ts` through the production start: 30 MiB in
 * use at idle; 59–76 MiB in use through a 5-minute soak when a 32 MiB idempotency cache was still
 * in this heap at its bound (working set, cache and garbage not yet collected); 25–32 MiB in use
 * through the soak since the cache left it (read every 10 s). 48 leaves V8 room to collect
 * incrementally instead of in back-to-back full collections near the limit.
 */
export const MAIN_WORKING_SET_MB = 48;
/** Below this (the idle working set and little more) the process would run out of heap under load: refused at boot. */
export const MIN_MAIN_WORKING_SET_MB = 32;
/** The main thread's semi-space (young generation = 3 × this): smaller scavenges more often. */
export const MAIN_SEMI_SPACE_MB = 4;

/**
 * The embedded engine's worker: the ledger's code and one call's objects per call in flight.
 * Measured 15–18 MiB of heap in use under full load. Young generation: 3 semi-spaces, each a power
 * of 2 MiB, so 6 gives 2 MiB semi-spaces (9 and 12 both give 4). The engine's garbage is one
 * batch's commands and rows, dead once the batch commits: with 2 MiB semi-spaces the process
 * peaked 6-7 MiB lower under load (139 against 145-146 MiB, 5 alternated rounds; the 5-minute soak
 * 141 MiB) for +0.8 % instructions per earn, within the noise of CPU time (docs/benchmarks.md, "Where the memory goes").
 */
export const ENGINE_WORKER_LIMITS = { maxOldGenerationSizeMb: 40, maxYoungGenerationSizeMb: 6 } as const satisfies ResourceLimits;
/** The delivery journal's SQLite writer: one prepared statement and one batch of rows at a time (4–6 MiB in use). */
export const JOURNAL_WORKER_LIMITS = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 6 } as const satisfies ResourceLimits;

export interface MemoryConfig {
  GATEWAY_HEAP_MB?: number | undefined;
  DATABASE_URL?: string | undefined;
  LOYALTY_ENGINE_URL?: string | undefined;
}

/**
 * Where the embedded engine runs. On SQLite, its own worker thread: better-sqlite3 is synchronous,
 * and on the event loop every statement and commit would stall every other request. On PostgreSQL
 * nothing it does is synchronous, so it runs on the event loop: no hand-over of each call and
 * answer between threads, and one isolate less. Measured, three alternated pairs of the PostgreSQL
 * round: gateway CPU per earn 268 / 311 / 339 against 309 / 312 / 386 µs with the thread, RSS idle
 * 129–134 against 159–162 MiB (docs/benchmarks.md). With LOYALTY_ENGINE_URL there is none.
 */
export const engineOnEventLoop = (config: MemoryConfig): boolean => Boolean(config.DATABASE_URL) && !config.LOYALTY_ENGINE_URL;

/** What the engine needs of the main thread's heap when it runs there: 15–18 MiB in use under load measured on its own thread. */
export const MIN_ENGINE_WORKING_SET_MB = 24;

/** The smallest main-thread old generation the gateway runs in (with the engine, when it runs there). */
export const minimumMainHeapMb = (config: MemoryConfig): number =>
  MIN_MAIN_WORKING_SET_MB + (engineOnEventLoop(config) ? MIN_ENGINE_WORKING_SET_MB : 0);

/**
 * minimumMainHeapMb written out for a refusal: "32 (MiB)", or with the engine's share named when
 * it runs on the event loop.
 */
export const minimumMainHeapText = (config: MemoryConfig): string =>
  engineOnEventLoop(config)
    ? `${MIN_MAIN_WORKING_SET_MB} + ${MIN_ENGINE_WORKING_SET_MB} (the loyalty engine runs in this heap with DATABASE_URL) = ${minimumMainHeapMb(config)} (MiB)`
    : `${minimumMainHeapMb(config)} (MiB)`;

/**
 * The main thread's old-generation bound: GATEWAY_HEAP_MB, or the working set, plus the engine's
 * own bound when the engine runs on the event loop (engineOnEventLoop).
 */
export const mainHeapMb = (config: MemoryConfig): number =>
  config.GATEWAY_HEAP_MB ?? MAIN_WORKING_SET_MB + (engineOnEventLoop(config) ? ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb : 0);

/** The node flags of the production start (the main thread's isolate is sized before any code runs). */
export const mainThreadFlags = (config: MemoryConfig): string[] => [
  `--max-old-space-size=${mainHeapMb(config)}`,
  `--max-semi-space-size=${MAIN_SEMI_SPACE_MB}`,
];

/**
 * V8's heap flags are process-wide: a worker started while --max-old-space-size or
 * --max-semi-space-size is set gets the main thread's bounds and ignores its `resourceLimits`.
 * The main isolate's heap is sized when it is created, so once it runs the flags can be cleared
 * (0: unset) and each worker is then sized by its own `resourceLimits`. Call before starting any.
 */
export function releaseHeapFlagsForWorkers(): void {
  setFlagsFromString('--max-old-space-size=0');
  setFlagsFromString('--max-semi-space-size=0');
}

/**
 * Refuse to boot when the main thread's heap, however it was bounded (the production start's
 * flags, an operator's NODE_OPTIONS), is below the gateway's working set: the process would
 * otherwise run out of heap under load rather than at start.
 * `heapLimitBytes`: v8.getHeapStatistics().heap_size_limit (old and young generations together).
 */
export function assertHeapHoldsWorkingSet(config: MemoryConfig, heapLimitBytes: number): void {
  const limitMb = Math.floor(heapLimitBytes / (1024 * 1024));
  if (limitMb < minimumMainHeapMb(config))
    throw new ConfigError(
      `Invalid configuration:\n  the main thread's heap limit of ${limitMb} MiB (--max-old-space-size in the node flags or NODE_OPTIONS) ` +
        `is below the gateway's working set: it needs at least ${minimumMainHeapText(config)}; ` +
        'start with gateway/bin/start, which sizes the heap, or raise --max-old-space-size',
    );
}
