import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ConfigError } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import {
  ENGINE_WORKER_LIMITS,
  engineOnEventLoop,
  MAIN_SEMI_SPACE_MB,
  MAIN_WORKING_SET_MB,
  MIN_ENGINE_WORKING_SET_MB,
  MIN_MAIN_WORKING_SET_MB,
  assertHeapHoldsWorkingSet,
  mainThreadFlags,
  releaseHeapFlagsForWorkers,
} from './memory-bounds.js';

const MiB = 1024 * 1024;

/** The heap limit V8 gives a worker thread started now with these resourceLimits. */
function workerHeapLimit(resourceLimits: ResourceLimits): Promise<number> {
  const worker = new Worker(
    "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
    { eval: true, resourceLimits },
  );
  return new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject)).finally(() => worker.terminate());
}

describe('memory bounds', () => {
  it('the main thread: old generation = the working set (the idempotency cache is outside the heap), or GATEWAY_HEAP_MB', () => {
    expect(mainThreadFlags({})).toEqual([`--max-old-space-size=${MAIN_WORKING_SET_MB}`, `--max-semi-space-size=${MAIN_SEMI_SPACE_MB}`]);
    expect(mainThreadFlags({ GATEWAY_HEAP_MB: 200 })[0]).toBe('--max-old-space-size=200');
  });

  it("on PostgreSQL the embedded engine runs on the event loop, and the main thread's bound takes in the engine thread's", () => {
    const postgres = { DATABASE_URL: 'postgres://db/lg' };
    expect(engineOnEventLoop(postgres)).toBe(true);
    expect(engineOnEventLoop({})).toBe(false);
    expect(engineOnEventLoop({ ...postgres, LOYALTY_ENGINE_URL: 'http://engine:4000' })).toBe(false);
    expect(mainThreadFlags(postgres)[0]).toBe(`--max-old-space-size=${MAIN_WORKING_SET_MB + ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb}`);
    expect(mainThreadFlags({ ...postgres, LOYALTY_ENGINE_URL: 'http://engine:4000' })[0]).toBe(
      `--max-old-space-size=${MAIN_WORKING_SET_MB}`,
    );
    expect(mainThreadFlags({ ...postgres, GATEWAY_HEAP_MB: 70 })[0]).toBe('--max-old-space-size=70');
  });

  it('a heap too small for the working set stops the boot with a ConfigError naming the limit and what it needs', () => {
    expect(() => assertHeapHoldsWorkingSet({}, 24 * MiB)).toThrow(ConfigError);
    expect(() => assertHeapHoldsWorkingSet({}, 24 * MiB)).toThrow(
      new RegExp(`the main thread's heap limit of 24 MiB[\\s\\S]*it needs at least ${MIN_MAIN_WORKING_SET_MB} \\(MiB\\)`),
    );
    expect(() => assertHeapHoldsWorkingSet({}, MIN_MAIN_WORKING_SET_MB * MiB)).not.toThrow();
    // With the engine on the event loop (DATABASE_URL), the refusal names the engine's share too.
    const onPostgres = { DATABASE_URL: 'postgres://db/gateway' };
    const needed = MIN_MAIN_WORKING_SET_MB + MIN_ENGINE_WORKING_SET_MB;
    expect(() => assertHeapHoldsWorkingSet(onPostgres, MIN_MAIN_WORKING_SET_MB * MiB)).toThrow(
      `it needs at least ${MIN_MAIN_WORKING_SET_MB} + ${MIN_ENGINE_WORKING_SET_MB} (the loyalty engine runs in this heap with DATABASE_URL) = ${needed} (MiB)`,
    );
    expect(() => assertHeapHoldsWorkingSet(onPostgres, needed * MiB)).not.toThrow();
  });

  it("the main thread's heap flags would override every worker's resourceLimits; released, each worker gets its own", async () => {
    const own = (ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb + ENGINE_WORKER_LIMITS.maxYoungGenerationSizeMb) * MiB;
    try {
      // What the production start's flags do to this process (here set late; node sets them at start).
      setFlagsFromString('--max-old-space-size=80');
      setFlagsFromString('--max-semi-space-size=4');
      expect(await workerHeapLimit(ENGINE_WORKER_LIMITS)).toBe((80 + 3 * 4) * MiB);
    } finally {
      releaseHeapFlagsForWorkers();
    }
    expect(await workerHeapLimit(ENGINE_WORKER_LIMITS)).toBe(own);
  });
});
