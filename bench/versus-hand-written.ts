/**
 * The gateway's embedded earn path against the handler a team would write instead
 * (bench/hand-written-server.ts), in alternated rounds of one run: each round starts every target
 * on a fresh data directory, one after the other, and gives each gateway's requests per second as a
 * ratio of the hand-written handler's in that round. This machine's load drifts by more than the
 * differences sought over a minute; a ratio taken within a round, over several rounds, does not.
 * Each round starts one target later than the round before (the handler first in round 1), so
 * over as many rounds as targets every target has run in every place.
 *
 *   npm run build && npx tsx bench/versus-hand-written.ts
 *   BENCH_ENTRIES=.data/base/main.js,gateway/dist/main.js npx tsx bench/versus-hand-written.ts   (two builds)
 *
 * BENCH_ROUNDS (default 3) rounds of BENCH_DURATION seconds (default 10) per target after a 3 s
 * warm-up, at BENCH_CONNECTIONS (default 50); the same signed, unique sales (bench/signed-load.ts)
 * to every target. An entry may carry its own environment after `?` (`gateway/dist/main.js?GATEWAY_JOURNAL_DAYS=0`).
 * BENCH_START=prod starts each gateway entry as the production start does (the `bin/start` beside the
 * entry's `dist/`: gateway/bin/start for gateway/dist/main.js, another checkout's for its build):
 * heap flags and glibc's malloc settings, which an entry's environment may override
 * (`gateway/dist/main.js?MALLOC_TRIM_THRESHOLD_=524288`). Per target:
 * req/s, p99, server CPU, minor page faults per request and peak RSS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, gatewayEnv, sampler, startServer } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = (process.env.BENCH_ENTRIES ?? 'gateway/dist/main.js').split(',').map((e) => e.trim());
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const HAND_WRITTEN = 'bench/hand-written-server.ts';

interface Measured {
  rps: number;
  p99: number;
  /** Server CPU µs per request, all threads. */
  cpu: number;
  /** Of it, the main thread's (the event loop); the rest is the engine's, the journal's and V8's threads. */
  cpuMain: number;
  /** Minor page faults per request (the whole process). */
  faults: number;
  /** Peak RSS while measured, MiB. */
  rssMiB: number;
  bad: number;
}

async function measure(target: string, dir: string): Promise<Measured> {
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const [file = target, query = ''] = target.split('?', 2);
  const env =
    target === HAND_WRITTEN
      ? { PORT: '0', DATA_DIR: dir }
      : { ...gatewayEnv(path.join(dir, 'data'), seedFile, process.env.BENCH_LOG_LEVEL), ...Object.fromEntries(new URLSearchParams(query)) };
  // BENCH_START=prod: a gateway entry is started as the production start does (the bin/start beside
  // its dist/: heap flags and glibc's malloc settings), the entry's own environment still applied.
  const prod = process.env.BENCH_START === 'prod' && target !== HAND_WRITTEN;
  const server = prod
    ? await startServer(root, path.join(dir, 'server.log'), [], env, path.resolve(root, path.dirname(file), '../bin/start'))
    : await startServer(root, path.join(dir, 'server.log'), [file], env);
  try {
    await load(server.port, 3, connections);
    const before = server.cpu();
    const faultsBefore = server.faults();
    const memory = sampler(() => server.rss());
    const result = await load(server.port, duration, connections);
    const { peak } = memory.stop();
    const requests = Math.max(1, result.requests.total);
    const perThread = cpuPerRequest(before, server.cpu(), result.requests.total);
    const cpu = Object.values(perThread).reduce((a, b) => a + b, 0);
    return {
      rps: result.requests.average,
      p99: result.latency.p99,
      cpu,
      cpuMain: perThread.main ?? 0,
      faults: (server.faults() - faultsBefore) / requests,
      rssMiB: peak / 1024 / 1024,
      bad: result.non2xx + result.errors,
    };
  } finally {
    await server.stop();
  }
}

const targets = [HAND_WRITTEN, ...entries];
// By position, not by name: an entry may be listed twice (the same build in two places of a round).
const results: Measured[][] = targets.map(() => []);
for (let round = 1; round <= rounds; round += 1) {
  // Each round starts one target later, so no build keeps the same place: in two runs of four rounds
  // (2026-11-29) the place alone moved a build's req/s by ~9 % (cause not established).
  const shift = (round - 1) % targets.length;
  const order = [...targets.keys()].map((i) => (i + shift) % targets.length);
  for (const index of order) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-vs-'));
    try {
      results[index]!.push(await measure(targets[index]!, dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const base = results[0]![round - 1]!;
  const line = targets.map((target, index) => {
    const m = results[index]![round - 1]!;
    return `${target}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99} ms, ${m.cpu.toFixed(0)} µs CPU/request (main thread ${m.cpuMain.toFixed(0)}), ${m.faults.toFixed(2)} faults/request, peak ${m.rssMiB.toFixed(0)} MiB${index === 0 ? '' : ` (${((m.rps / base.rps) * 100).toFixed(1)} %, p99 ${(m.p99 / base.p99).toFixed(2)}×)`}${m.bad > 0 ? `, ${m.bad} non-2xx/errors` : ''}`;
  });
  console.log(`round ${round} (order ${order.map((i) => i + 1).join(', ')}): ${line.join(' | ')}`);
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const hand = results[0]!;
console.log(
  `\n| target | req/s (mean of ${rounds}) | p99 ms (mean) | CPU µs/request (main thread) | minor faults/request | peak RSS MiB (max) | req/s ratio per round | p99 ratio per round |\n|---|---:|---:|---:|---:|---:|---|---|`,
);
targets.forEach((target, index) => {
  const ms = results[index]!;
  const ratios = ms.map((m, i) => `${((m.rps / hand[i]!.rps) * 100).toFixed(0)} %`).join(', ');
  const p99s = ms.map((m, i) => `${(m.p99 / hand[i]!.p99).toFixed(2)}×`).join(', ');
  console.log(
    `| ${target} | ${mean(ms.map((m) => m.rps)).toFixed(0)} | ${mean(ms.map((m) => m.p99)).toFixed(1)} | ${mean(ms.map((m) => m.cpu)).toFixed(0)} (${mean(ms.map((m) => m.cpuMain)).toFixed(0)}) | ${mean(ms.map((m) => m.faults)).toFixed(2)} | ${Math.max(...ms.map((m) => m.rssMiB)).toFixed(0)} | ${index === 0 ? '—' : ratios} | ${index === 0 ? '—' : p99s} |`,
  );
});
if (results.some((ms) => ms.some((m) => m.bad > 0))) {
  console.error('a target answered non-2xx or failed requests: the figures are not valid');
  process.exitCode = 1;
}
