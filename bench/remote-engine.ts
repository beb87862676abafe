/**
 * The engine as its own service against the embedded engine, in one run: the gateway's signed earn
 * path served with the embedded engine, and with LOYALTY_ENGINE_URL pointed at the engine service
 * (`npm run engine:prod`, token on, same machine), the service's calls batched (POST /v1/commands)
 * or each on its own endpoint (the engine service started with ENGINE_COMMAND_BATCHES=off, which
 * the client meets as an older service: every call alone, as before batches).
 *
 *   npx tsx bench/remote-engine.ts
 *   BENCH_ROUNDS=3 BENCH_DURATION=10 BENCH_CONNECTIONS=50 BENCH_TARGETS=embedded,batched,single npx tsx bench/remote-engine.ts
 *
 * Rounds alternate the targets' order (a steady drift of this shared machine weighs on each alike);
 * every target starts fresh processes on a fresh data directory, is warmed up 3 s, then measured.
 * Reported per target: req/s, p50/p99, and CPU µs per earn of every process it runs (the gateway's
 * and the engine service's main threads and other threads), from /proc. Runs the compiled build
 * (gateway/dist/main.js, engine/dist/main.js: `npm run build`) when it exists, else the sources.
 * Prints its table; docs/benchmarks.md ("Engine as its own service") is written by hand from it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, gatewayEnv, startServer, type ServerProcess } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
const targets = (process.env.BENCH_TARGETS ?? 'embedded,batched,single').split(',').map((t) => t.trim()) as Target[];
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const compiled =
  process.env.BENCH_BUILD !== 'source' &&
  existsSync(path.join(root, 'gateway/dist/main.js')) &&
  existsSync(path.join(root, 'engine/dist/main.js'));
const GATEWAY_ENTRY = compiled ? 'gateway/dist/main.js' : 'gateway/src/main.ts';
const ENGINE_ENTRY = compiled ? 'engine/dist/main.js' : 'engine/src/main.ts';
const TOKEN = 'bench-engine-token-0123456789';

type Target = 'embedded' | 'batched' | 'single';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lg-bench-remote-'));
const seedFile = path.join(dataDir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(seed));

interface Measured {
  target: Target;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU µs per earn: gateway main thread, gateway other threads, engine service main thread, its other threads. */
  gatewayMain: number;
  gatewayOther: number;
  engineMain: number;
  engineOther: number;
}

const split = (cpu: Record<string, number>) => {
  let other = 0;
  for (const [thread, us] of Object.entries(cpu)) if (thread !== 'main') other += us;
  return { main: cpu.main ?? 0, other };
};

async function measure(target: Target, round: number): Promise<Measured> {
  const dir = path.join(dataDir, `${target}-${round}`);
  const processes: ServerProcess[] = [];
  try {
    let engine: ServerProcess | undefined;
    const env = gatewayEnv(path.join(dir, 'gateway'), seedFile, logLevel);
    if (target !== 'embedded') {
      engine = await startServer(root, path.join(dataDir, `engine-${target}-${round}.log`), [ENGINE_ENTRY], {
        ENGINE_PORT: '0',
        ENGINE_HOST: '127.0.0.1',
        ENGINE_DATA_DIR: path.join(dir, 'engine'),
        ENGINE_TOKEN: TOKEN,
        ENGINE_SEED_FILE: seedFile,
        ENGINE_COMMAND_BATCHES: target === 'batched' ? 'on' : 'off',
        DATABASE_URL: '',
        LOG_LEVEL: logLevel,
      });
      processes.push(engine);
      Object.assign(env, { LOYALTY_ENGINE_URL: `http://127.0.0.1:${engine.port}`, LOYALTY_ENGINE_TOKEN: TOKEN });
    }
    const gateway = await startServer(root, path.join(dataDir, `gateway-${target}-${round}.log`), [GATEWAY_ENTRY], env);
    processes.push(gateway);
    if (engine && gateway.port === engine.port) throw new Error('the gateway log named the engine service before its own address');
    await load(gateway.port, 3, connections);
    const before = { gateway: gateway.cpu(), engine: engine?.cpu() ?? {} };
    const result = await load(gateway.port, duration, connections);
    const total = Math.max(1, result.requests.total);
    const gatewayThreads = cpuPerRequest(before.gateway, gateway.cpu(), total);
    const engineThreads = engine ? cpuPerRequest(before.engine, engine.cpu(), total) : {};
    const g = split(gatewayThreads);
    const e = engine ? split(engineThreads) : { main: 0, other: 0 };
    const busiest = (threads: Record<string, number>) =>
      Object.entries(threads)
        .filter(([thread, us]) => thread !== 'main' && us >= 5)
        .sort((a, b) => b[1] - a[1])
        .map(([thread, us]) => `${thread} ${us.toFixed(0)}`)
        .join(', ');
    const measured: Measured = {
      target,
      round,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      gatewayMain: g.main,
      gatewayOther: g.other,
      engineMain: e.main,
      engineOther: e.other,
    };
    console.log(
      `round ${round} ${target}: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, non-2xx ${measured.non2xx}, errors ${measured.errors}; ` +
        `CPU µs/earn gateway ${g.main.toFixed(0)} + ${g.other.toFixed(0)}, engine service ${e.main.toFixed(0)} + ${e.other.toFixed(0)}`,
    );
    console.log(`  other threads, µs/earn: gateway ${busiest(gatewayThreads) || '—'}; engine service ${busiest(engineThreads) || '—'}`);
    return measured;
  } finally {
    for (const p of processes.reverse()) await p.stop();
  }
}

try {
  const results: Measured[] = [];
  for (let round = 1; round <= roundCount; round += 1) {
    // Rotate the order each round: first, middle and last place go to each target in turn.
    const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]!);
    for (const target of order) results.push(await measure(target, round));
  }
  const mean = (target: Target, pick: (m: Measured) => number) => {
    const of = results.filter((m) => m.target === target);
    return of.reduce((sum, m) => sum + pick(m), 0) / Math.max(1, of.length);
  };
  const cpu = (m: Measured) => m.gatewayMain + m.gatewayOther + m.engineMain + m.engineOther;
  console.log(
    `\n${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, ${compiled ? 'compiled build' : 'TypeScript sources'}, ` +
      `${connections} connections, ${duration} s per target after 3 s, ${roundCount} rounds, order rotated per round, token on\n`,
  );
  console.log(
    '| round | target | req/s | p50 ms | p99 ms | CPU µs/earn: gateway main | gateway other | engine service main | engine other | all |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const m of results) {
    console.log(
      `| ${m.round} | ${m.target} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.gatewayMain.toFixed(0)} | ${m.gatewayOther.toFixed(0)} | ${m.engineMain.toFixed(0)} | ${m.engineOther.toFixed(0)} | ${cpu(m).toFixed(0)} |`,
    );
  }
  if (targets.includes('embedded')) {
    const embedded = mean('embedded', (m) => m.rps);
    for (const target of targets.filter((t) => t !== 'embedded')) {
      console.log(
        `${target}: ${((mean(target, (m) => m.rps) / embedded) * 100).toFixed(0)} % of embedded's req/s (means of the rounds), ` +
          `p99 ${results
            .filter((m) => m.target === target)
            .map((m) => m.p99)
            .join(' / ')} ms, CPU ${mean(target, cpu).toFixed(0)} µs/earn against ${mean('embedded', cpu).toFixed(0)}`,
      );
    }
  }
  if (results.some((m) => m.non2xx > 0 || m.errors > 0)) {
    console.error('non-2xx answers or failed requests during the run: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  if (process.env.BENCH_KEEP_DATA) console.log(`logs and data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
