/**
 * Resident memory of one gateway process (the compiled earn path, `npm run build` first), read
 * from /proc: idle after start-up, then every 250 ms under a signed-sale load, then idle again.
 * It is the soak of issue 14 when run long:
 *
 *   npx tsx bench/memory.ts                       (BENCH_DURATION=30 s at BENCH_CONNECTIONS=50)
 *   BENCH_DURATION=300 npx tsx bench/memory.ts    (the 5-minute soak)
 *   BENCH_NODE_OPTIONS="--max-semi-space-size=4" npx tsx bench/memory.ts   (V8 flags for the gateway)
 *   BENCH_START=prod npx tsx bench/memory.ts      (through the production start, gateway/bin/start:
 *                                                  its heap flags and MALLOC_ARENA_MAX=2)
 *   BENCH_GATEWAY=path/to/main.js                 (another build of the gateway, e.g. a baseline's)
 *   BENCH_START=prod BENCH_START_SCRIPT=DIR/bin/start   (the production start of another build: a copy of
 *                                                  gateway/bin/start beside that build's DIR/dist)
 *   BENCH_ENV="MALLOC_ARENA_MAX=2 GATEWAY_IDEMPOTENCY_CACHE_MB=16"   (more environment for the gateway)
 *
 * Prints one line per 10 s (RSS now, peak so far, req/s) so growth over time is visible, where the
 * resident memory is at the end of the load (residentBreakdown), each thread's V8 heap, external
 * memory and V8's own malloc'd memory, now and at its peak (bench/thread-heaps.cjs, preloaded into
 * every thread), glibc's arenas at the end of the load when gdb is installed (malloc-arenas.ts:
 * held, at most, and free: fragmentation or live blocks), then a summary.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeArenas, mallocArenas } from './malloc-arenas.js';
import { seed } from './seed.js';
import { cpuPerRequest, gatewayEnv, startServer } from './server-process.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MB = 1024 * 1024;
const ADMIN_TOKEN = 'bench_admin_token_0123456789abcdef';

/** The main thread's V8 heap (used / total) and external memory, from the gateway's own /metrics (prom-client's process metrics). */
async function heap(port: number): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const metric = (name: string) => Number(new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? NaN) / MB;
  return `main heap ${metric('nodejs_heap_size_used_bytes').toFixed(0)}/${metric('nodejs_heap_size_total_bytes').toFixed(0)} MiB, external ${metric('nodejs_external_memory_bytes').toFixed(0)} MiB`;
}

/**
 * Where the resident memory is, from /proc/<pid>/smaps: the node binary's pages (file-backed,
 * shared with every node process), `[heap]` (glibc's main arena where the kernel let it grow by
 * brk: SQLite's page caches, better-sqlite3, libuv, HTTP buffers; on some hosts it cannot, and the
 * main arena is anonymous mappings counted with the other arenas), V8's heap pages (anonymous
 * 256 KiB mappings, the three isolates' heaps), glibc's other arenas (anonymous mappings of 1 MiB
 * or more) and the rest (stacks, code space, other libraries). The arenas' own account, when gdb
 * can read it, is the line after this one.
 */
function residentBreakdown(pid: number): string {
  const parts = { 'node binary': 0, '[heap] (brk)': 0, 'V8 heap pages': 0, 'other arenas': 0, rest: 0 };
  let kind: keyof typeof parts = 'rest';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const kib = (parseInt(mapping[2]!, 16) - parseInt(mapping[1]!, 16)) / 1024;
      const name = mapping[3] ?? '';
      kind =
        name === process.execPath || name.endsWith('/node')
          ? 'node binary'
          : name === '[heap]'
            ? '[heap] (brk)'
            : name !== ''
              ? 'rest'
              : kib === 256
                ? 'V8 heap pages'
                : kib >= 1024
                  ? 'other arenas'
                  : 'rest';
    } else if (line.startsWith('Rss:')) parts[kind] += Number(line.split(/\s+/)[1]) / 1024;
  }
  return Object.entries(parts)
    .map(([name, mib]) => `${name} ${mib.toFixed(0)}`)
    .join(', ');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-memory-'));
writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
const prod = process.env.BENCH_START === 'prod';
/**
 * Each thread's V8 heap figures, written by bench/thread-heaps.cjs: one line per thread, now and
 * at its peak over the run (sampled each second).
 */
const threadHeaps = path.join(dir, 'thread-heap');
function describeThreadHeaps(): string[] {
  const names = ['event loop', 'engine', 'journal writer'];
  return readdirSync(dir)
    .filter((name) => name.startsWith('thread-heap.'))
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as ThreadHeap)
    .sort((a, b) => a.threadId - b.threadId)
    .map(({ threadId, now, peak, peakMalloced }) => {
      const pair = (key: keyof ThreadHeap['now']) => `${now[key].toFixed(1)} (${peak[key].toFixed(1)})`;
      return `  thread ${threadId} (${names[threadId] ?? 'other'}): heap used ${pair('heapUsed')}, total ${pair('heapTotal')}, external ${pair('external')} of it ArrayBuffers ${pair('arrayBuffers')}, V8's malloc ${pair('malloced')}, at most ${peakMalloced.toFixed(1)}`;
    });
}
interface ThreadHeap {
  threadId: number;
  now: Record<'heapUsed' | 'heapTotal' | 'external' | 'arrayBuffers' | 'malloced', number>;
  peak: ThreadHeap['now'];
  peakMalloced: number;
}
const extraEnv = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/\s+/)
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const args = prod ? [] : [process.env.BENCH_GATEWAY ?? 'gateway/dist/main.js'];
const server = await startServer(
  root,
  path.join(dir, 'gateway.log'),
  args,
  {
    ...gatewayEnv(path.join(dir, 'data'), path.join(dir, 'seed.json')),
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    NODE_OPTIONS:
      `${process.env.BENCH_NODE_OPTIONS ?? ''} --require ${fileURLToPath(new URL('./thread-heaps.cjs', import.meta.url))}`.trim(),
    BENCH_THREAD_HEAPS: threadHeaps,
    ...(prod ? { NODE: process.execPath } : {}),
    ...extraEnv,
  },
  prod ? path.resolve(root, process.env.BENCH_START_SCRIPT ?? 'gateway/bin/start') : undefined,
);
try {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = server.rss() / MB;
  let peak = 0;
  let sum = 0;
  let samples = 0;
  const sample = setInterval(() => {
    const rss = server.rss() / MB;
    peak = Math.max(peak, rss);
    sum += rss;
    samples += 1;
  }, 250);
  let served = 0;
  const cpuBefore = server.cpu();
  const startedAt = Date.now();
  for (let at = 0; at < duration; at += 10) {
    const seconds = Math.min(10, duration - at);
    const result = await load(server.port, seconds, connections);
    served += result.requests.total;
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`non-2xx ${result.non2xx}, errors ${result.errors}: the figures are not valid`);
    console.log(
      `${String(at + seconds).padStart(4)} s: RSS ${(server.rss() / MB).toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, ${result.requests.average.toFixed(0)} req/s; ${await heap(server.port)}`,
    );
  }
  clearInterval(sample);
  const seconds = (Date.now() - startedAt) / 1000;
  const cpu = Object.values(cpuPerRequest(cpuBefore, server.cpu(), served)).reduce((a, b) => a + b, 0);
  console.log(`resident MiB at the end of the load: ${residentBreakdown(server.child.pid!)}`);
  console.log(`each thread's V8 heap, MiB now (at its peak):\n${describeThreadHeaps().join('\n')}`);
  const arenas = mallocArenas(server.child.pid!);
  console.log(
    `glibc's arenas at the end of the load, MiB: ${arenas ? describeArenas(arenas) : 'not read (gdb not installed or could not attach)'}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  console.log(`after: ${await heap(server.port)}`);
  console.log(
    `idle ${idle.toFixed(0)} MiB; under load (${duration} s, ${connections} connections, ${served} earns): peak ${peak.toFixed(0)} MiB, mean ${(sum / Math.max(1, samples)).toFixed(0)} MiB; idle 5 s after ${(server.rss() / MB).toFixed(0)} MiB` +
      `; ${(served / seconds).toFixed(0)} earns/s, ${cpu.toFixed(0)} µs CPU per earn (gateway, all threads)` +
      (process.env.BENCH_NODE_OPTIONS ? ` (NODE_OPTIONS=${process.env.BENCH_NODE_OPTIONS})` : '') +
      (prod ? ` (${process.env.BENCH_START_SCRIPT ?? 'gateway/bin/start'})` : '') +
      (process.env.BENCH_GATEWAY ? ` (${process.env.BENCH_GATEWAY})` : '') +
      (process.env.BENCH_ENV ? ` (${process.env.BENCH_ENV})` : ''),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
