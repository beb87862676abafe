/**
 * Preloaded into the gateway by bench/memory.ts (`--require` in NODE_OPTIONS, which node applies
 * to every thread it starts): each isolate (the event loop, the engine's thread, the journal's
 * writer) samples its own V8 heap once a second and keeps the peaks, rewriting them to
 * `${BENCH_THREAD_HEAPS}.<threadId>` as one JSON object. /metrics reports the main thread's heap
 * only; this shows which thread's heap, external memory (ArrayBuffers and the like, allocated by
 * malloc) or V8's own malloc'd memory (its compilers' and parsers' zones) followed the load.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node -r) */
const { writeFileSync } = require('node:fs');
const { getHeapStatistics } = require('node:v8');
const { threadId } = require('node:worker_threads');

const file = process.env.BENCH_THREAD_HEAPS;
if (file) {
  const MiB = 1024 * 1024;
  const peak = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0, malloced: 0 };
  setInterval(() => {
    const usage = process.memoryUsage();
    const heap = getHeapStatistics();
    const now = {
      heapUsed: usage.heapUsed / MiB,
      heapTotal: usage.heapTotal / MiB,
      external: usage.external / MiB,
      arrayBuffers: usage.arrayBuffers / MiB,
      malloced: heap.malloced_memory / MiB,
    };
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key]);
    writeFileSync(`${file}.${threadId}`, JSON.stringify({ threadId, now, peak, peakMalloced: heap.peak_malloced_memory / MiB }));
  }, 1000).unref();
}
