/**
 * Preloaded into a benchmark target (`--require`, see server-process.ts's nodeArgs) when
 * BENCH_ALLOC_PROF=DIR is set: V8's sampling heap profiler on the main thread, keeping the samples
 * of objects already collected (what `--heap-prof` drops), so the profile shows where the event
 * loop ALLOCATES, not only what it still holds: the source of its scavenges, which pause every
 * request in flight. One sample per ~4 KiB allocated on average. Written when the process exits
 * to DIR/Heap.<pid>.heapprofile (Chrome DevTools' Memory tab loads it; `bench/profile-summary.ts
 * DIR` sums it by function, per request after profile-earn).
 *
 * The main thread only: a worker stopped with terminate() never reaches its exit, and one that
 * wrote its profile while the load ran built the profile and its JSON on its own bounded heap —
 * the engine thread then missed its calls' deadlines and 50 requests were answered 500.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node -r) */
const { writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.BENCH_ALLOC_PROF;
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  // An in-thread session answers synchronously: safe in an exit handler.
  process.on('exit', () =>
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `Heap.${process.pid}.heapprofile`), JSON.stringify(result.profile));
    }),
  );
}
