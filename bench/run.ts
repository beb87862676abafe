/**
 * Benchmark: bare Fastify, the handler a team would write instead of adopting the gateway
 * (bench/hand-written-server.ts: v1 HMAC, zod, one SQLite transaction per sale on the event loop)
 * and the gateway's full signed earn path (v1 HMAC, zod envelope, cache, durable SQLite ledger),
 * in the same run, on loopback, with autocannon.
 *
 *   npm run bench                 (defaults: 10 s per target after a 3 s warm-up, at 50 connections)
 *   BENCH_DURATION=20 BENCH_CONNECTIONS=64 npm run bench      (one or more comma-separated counts)
 *
 * The hand-written handler and the earn path with the journal and without it run side by side
 * (bench/interleaved.ts): all three started, then loaded in turn, BENCH_SLICES (default 10) rounds
 * of BENCH_SLICE_SECONDS (default 2) each, after a warm-up of BENCH_SIDE_WARMUP seconds (default 5)
 * each. Their ratios (issue 40's targets) are smaller than this machine's drift over a minute; one
 * after the other, a run whose host changed speed between them was void.
 *
 * The gateway runs as users run it in production: the compiled build (`npm run build`,
 * gateway/dist/main.js with plain node) when it exists, else the TypeScript sources through tsx
 * (BENCH_BUILD=source forces the sources); BENCH_CPU_PROF=DIR writes each target's V8 CPU profiles
 * (one per thread) there. Its resident memory is sampled from /proc through each
 * run (idle before the warm-up, peak and mean under load).
 *
 * With DATABASE_URL and REDIS_URL set, a PostgreSQL round follows: two gateway processes on one
 * fresh schema and Redis, sales spread over 300 members, the load split between the two, at
 * BENCH_PG_CONNECTIONS (default 64), measured after a warm-up of BENCH_PG_WARMUP seconds (default 15:
 * each process serves a few times fewer requests per second than the embedded target, and after
 * 3 s V8 was still compiling the hot paths, ~20 % of its CPU); the CPU of PostgreSQL's and Redis's
 * processes is read too; then, on the same server in the same run, pgbench's TPC-B (scale 10, 16
 * clients) as the baseline of what the server does with transactions of that size.
 *
 * Each target's other threads are printed by name/thread id (Node names its workers and V8's
 * helpers alike). BENCH_NODE_FLAGS passes node or V8 flags to the targets only; BENCH_KEEP_DATA=1
 * keeps their logs and data directory.
 *
 * BENCH_TARGETS=postgres runs the PostgreSQL round alone (BENCH_TARGETS=embedded the rounds before
 * it alone); a partial run prints its figures and leaves docs/benchmarks.md as it is.
 *
 * Every request carries a fresh transaction id and a fresh signature, so each one is a real earn
 * (points credited, ledger rows written), never a duplicate answered from cache. The bare target
 * receives the same signed bodies so client-side costs are equal. Writes docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { interleave } from './interleaved.js';
import { postgresTarget } from './postgres-target.js';
import { cpuPerRequest, gatewayEnv, processesCpu, sampler, startServer, type ServerProcess } from './server-process.js';
import { seed } from './seed.js';
import { load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? '50').split(',').map(Number);
const compiled = process.env.BENCH_BUILD !== 'source' && existsSync(path.join(root, 'gateway/dist/main.js'));
const GATEWAY_ENTRY = compiled ? 'gateway/dist/main.js' : 'gateway/src/main.ts';
const MB = 1024 * 1024;
const pgWarmUp = Number(process.env.BENCH_PG_WARMUP ?? 15);
const slices = Number(process.env.BENCH_SLICES ?? 10);
const sliceSeconds = Number(process.env.BENCH_SLICE_SECONDS ?? 2);
const sideWarmUp = Number(process.env.BENCH_SIDE_WARMUP ?? 5);
const targets = new Set((process.env.BENCH_TARGETS ?? 'embedded,postgres').split(',').map((t) => t.trim()));

/** One measured run against one or more processes of a target (the load split evenly between them). */
async function measureServers(
  name: string,
  servers: ServerProcess[],
  connections: number,
  members?: readonly string[],
  /** The commands of the servers the target talks to (PostgreSQL, Redis), whose CPU is read as well. */
  services: readonly string[] = [],
  warmUp = 3,
  /** Random transaction ids (UUIDs) instead of nearly ordered ones (signed-load.ts). */
  randomIds?: boolean,
) {
  const share = Math.max(1, Math.round(connections / servers.length));
  const loadAll = (seconds: number, skipAggregateResult = false) =>
    Promise.all(servers.map((server) => load(server.port, seconds, share, members, randomIds, { skipAggregateResult })));
  const idle = servers.reduce((sum, server) => sum + server.rss(), 0);
  await loadAll(warmUp);
  const before = servers.map((server) => server.cpu());
  const clientBefore = process.cpuUsage();
  const servicesBefore = processesCpu(services);
  const memory = servers.map((server) => sampler(() => server.rss()));
  // Histograms kept encoded, so the round's percentiles are those of every request together (as the
  // side-by-side targets' are of all their slices), not the worst of the processes' own.
  const raw = await loadAll(duration, true);
  const aggregate = (of: Result[]) => autocannon.aggregateResult(of, { url: 'http://127.0.0.1' });
  // aggregateResult adds into the first result's status counts: each call gets copies of its own.
  const results = raw.map((r) => aggregate([structuredClone(r)]));
  const merged = aggregate(raw.map((r) => structuredClone(r)));
  const rss = memory.map((m) => m.stop());
  const clientUsage = process.cpuUsage(clientBefore);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const servicesAfter = processesCpu(services);
  /** µs of CPU per request of each service. */
  const servicesCpu = Object.fromEntries(services.map((s) => [s, (servicesAfter[s]! - servicesBefore[s]!) / Math.max(1, total)]));
  const client = (clientUsage.user + clientUsage.system) / Math.max(1, total);
  let main = 0;
  let other = 0;
  /** Each process's other threads (the worker threads, libuv's pool, V8's helpers), by name/tid. */
  const threads: Record<string, number> = {};
  servers.forEach((server, i) => {
    const cpu = cpuPerRequest(before[i]!, server.cpu(), total);
    main += cpu.main ?? 0;
    for (const [thread, us] of Object.entries(cpu)) {
      if (thread === 'main') continue;
      other += us;
      threads[servers.length > 1 ? `${i + 1}:${thread}` : thread] = us;
    }
  });
  const sum = (pick: (r: Result) => number) => results.reduce((acc, r) => acc + pick(r), 0);
  return reported(
    {
      name,
      connections,
      processes: servers.length,
      // Completed requests over the time each process was loaded (an external merge of autocannon's
      // results carries no per-second samples, so no `requests.average`), as bench/interleaved.ts counts.
      rps: sum((r) => r.requests.total / r.duration),
      p50: merged.latency.p50,
      p99: merged.latency.p99,
      processP99: results.map((r) => r.latency.p99),
      ok: sum((r) => r.statusCodeStats['200']?.count ?? 0),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      main,
      other,
      client,
      services: servicesCpu,
      /** Requests per second if every core did nothing but this: the machine's ceiling for this target. */
      ceiling: (os.cpus().length * 1e6) / (main + other + client),
      /** Per process, in MiB: before any load, the peak and the mean of the samples during the measured run. */
      rssIdle: idle / servers.length / MB,
      rssPeak: Math.max(...rss.map((r) => r.peak)) / MB,
      rssMean: rss.reduce((acc, r) => acc + r.mean, 0) / rss.length / MB,
    },
    threads,
  );
}

interface Measured {
  name: string;
  connections: number;
  processes: number;
  rps: number;
  p50: number;
  p99: number;
  /** Each process's own p99 (ms), when the target ran as several. */
  processP99: number[];
  ok: number;
  non2xx: number;
  errors: number;
  /** Server CPU µs per request: the event loop, the other threads, then the load generator's. */
  main: number;
  other: number;
  client: number;
  /** µs of CPU per request of each service (PostgreSQL, Redis). */
  services: Record<string, number>;
  ceiling: number;
  rssIdle: number;
  rssPeak: number;
  rssMean: number;
}

/** Print a target's figures (and its other threads' CPU by name/tid), and answer them. */
function reported(measured: Measured, threads: Record<string, number>): Measured {
  const { name, connections, main, other, client } = measured;
  console.log(
    `${name}, ${connections} connections: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, non-2xx ${measured.non2xx}, errors ${measured.errors}, server CPU µs/request: main thread ${main.toFixed(0)}, other threads ${other.toFixed(0)}, client ${client.toFixed(0)}; RSS MiB idle ${measured.rssIdle.toFixed(0)}, peak ${measured.rssPeak.toFixed(0)}`,
  );
  const byThread = Object.entries(threads)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([thread, us]) => `${thread} ${us.toFixed(0)}`);
  if (measured.processP99.length > 1) console.log(`  p99 of each process: ${measured.processP99.map((ms) => `${ms} ms`).join(', ')}`);
  if (byThread.length > 0) console.log(`  other threads, CPU µs/request: ${byThread.join(', ')}`);
  if (Object.keys(measured.services).length > 0) {
    console.log(
      `  servers, CPU µs/request: ${Object.entries(measured.services)
        .map(([s, us]) => `${s} ${us.toFixed(0)}`)
        .join(', ')}`,
    );
  }
  return measured;
}

async function measure(name: string, command: string[], env: Record<string, string>, connections: number, randomIds?: boolean) {
  const server = await startServer(root, path.join(dataDir, `${name.replace(/\W+/g, '-')}-${connections}.log`), command, env);
  try {
    return await measureServers(name, [server], connections, undefined, [], 3, randomIds);
  } finally {
    await server.stop();
  }
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

/** Replace the generated block of docs/benchmarks.md, keeping the written analysis around it. */
function writeResults(file: string, table: string): void {
  const block = `${START}\n${table}\n${END}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const at = current.indexOf(START);
  const end = current.indexOf(END);
  writeFileSync(file, at === -1 || end === -1 ? `${current}\n${block}\n` : current.slice(0, at) + block + current.slice(end + END.length));
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lg-bench-'));
const seedFile = path.join(dataDir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(seed));
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const pct = (a: Measured, b: Measured) => `${((a.rps / b.rps) * 100).toFixed(1)} %`;

/** The earn path (`npm start`) on a fresh data dir, with the delivery journal or without it (GATEWAY_JOURNAL_DAYS=0). */
function startGateway(name: string, journal: boolean, connections: number): Promise<ServerProcess> {
  return startServer(root, path.join(dataDir, `${name}-${connections}.log`), [GATEWAY_ENTRY], {
    ...gatewayEnv(path.join(dataDir, `data-${name}-${connections}`), seedFile, logLevel),
    ...(journal ? {} : { GATEWAY_JOURNAL_DAYS: '0' }),
  });
}

/** The handler a team would write instead (bench/hand-written-server.ts), on a fresh data dir. */
function startHandWritten(connections: number): Promise<ServerProcess> {
  const dir = path.join(dataDir, `data-hand-written-${connections}`);
  mkdirSync(dir, { recursive: true });
  return startServer(root, path.join(dataDir, `hand-written-${connections}.log`), ['bench/hand-written-server.ts'], {
    PORT: '0',
    DATA_DIR: dir,
  });
}

/**
 * The hand-written handler and the gateway's earn path with the journal and without it, side by side
 * (bench/interleaved.ts): the ratios issue 40 sets targets on (≥ 90 % of the handler, the journal
 * ≤ 8 %) are differences smaller than this machine's drift within a minute, so the three run in turn,
 * BENCH_SLICES rounds of BENCH_SLICE_SECONDS each, after a warm-up of BENCH_SIDE_WARMUP seconds each.
 */
async function sideBySide(connections: number) {
  const servers: ServerProcess[] = [];
  try {
    // One at a time, so that a target that fails to start leaves the ones before it to be stopped.
    servers.push(await startHandWritten(connections));
    servers.push(await startGateway('journal-on', true, connections));
    servers.push(await startGateway('journal-off', false, connections));
    const [handWritten, gateway, noJournal] = await interleave(
      [
        { name: 'hand-written handler (SQLite on the event loop)', server: servers[0]! },
        { name: 'gateway earn path (SQLite ledger)', server: servers[1]! },
        { name: 'gateway earn path, journal off', server: servers[2]! },
      ],
      { slices, seconds: sliceSeconds, connections, warmUp: sideWarmUp },
    );
    const measured = [handWritten!, gateway!, noJournal!].map((r) => {
      const { main = 0, ...others } = r.cpu;
      const other = Object.values(others).reduce((sum, us) => sum + us, 0);
      return reported(
        {
          name: r.name,
          connections,
          processes: 1,
          rps: r.rps,
          p50: r.p50,
          p99: r.p99,
          processP99: [r.p99],
          ok: r.ok,
          non2xx: r.non2xx,
          errors: r.errors,
          main,
          other,
          client: r.client,
          services: {},
          ceiling: (os.cpus().length * 1e6) / (main + other + r.client),
          rssIdle: r.rssIdle / MB,
          rssPeak: r.rssPeak / MB,
          rssMean: r.rssMean / MB,
        },
        others,
      );
    });
    /** Per round: the gateway's slice against the handler's, and the journal-on slice against the journal-off one. */
    const perRound = {
      versus: gateway!.sliceRps.map((rps, i) => rps / handWritten!.sliceRps[i]!),
      journal: gateway!.sliceRps.map((rps, i) => 1 - rps / noJournal!.sliceRps[i]!),
    };
    console.log(
      `  per round: the gateway / the handler ${perRound.versus.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}; the journal's cost ${perRound.journal.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}`,
    );
    return { handWritten: measured[0]!, gateway: measured[1]!, noJournal: measured[2]!, perRound };
  } finally {
    for (const server of servers) await server.stop();
  }
}

/**
 * One connection count's targets: bare Fastify and the HTTP path with no ledger one after the other,
 * then the handler and the earn path with and without the journal side by side (their ratios are
 * taken within their rounds), then the earn path with random transaction ids.
 */
async function round(connections: number) {
  const bare = await measure('bare Fastify', ['bench/bare-server.ts'], { PORT: '0' }, connections);
  const httpPath = await measure('gateway HTTP path, no ledger', ['bench/gateway-without-ledger.ts'], { LOG_LEVEL: logLevel }, connections);
  const { handWritten, gateway, noJournal, perRound } = await sideBySide(connections);
  // Random transaction ids (UUIDs), as Square, Clover and many generic vendors send them: each sale
  // lands on a random page of the ledger's unique key (docs/benchmarks.md).
  const randomIds = await measure(
    'gateway earn path, random transaction ids',
    [GATEWAY_ENTRY],
    gatewayEnv(path.join(dataDir, `data-random-${connections}`), seedFile, logLevel),
    connections,
    true,
  );
  const journal = { cost: 1 - gateway.rps / noJournal.rps, cpu: gateway.main + gateway.other - noJournal.main - noJournal.other };
  const versus = { share: gateway.rps / handWritten.rps, p99: gateway.p99 / handWritten.p99 };
  console.log(
    `ratio at ${connections} connections: ${pct(gateway, bare)} of bare Fastify, ${(versus.share * 100).toFixed(1)} % of the hand-written handler (p99 ${versus.p99.toFixed(2)}×); the journal ${(journal.cost * 100).toFixed(1)} %`,
  );
  return {
    bare,
    httpPath,
    gateway,
    noJournal,
    randomIds,
    rows: [bare, httpPath, handWritten, gateway, noJournal, randomIds],
    journal,
    versus,
    perRound,
  };
}

/** The smallest, middle and largest of `values`, as per cent: "min to max % (median m %)". */
function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const percent = (value: number) => (value * 100).toFixed(0).replace('-', '−');
  return `${percent(sorted[0]!)} to ${percent(sorted.at(-1)!)} % (median ${percent(median)} %)`;
}

/** pgbench's TPC-B on its own database of the same server: scale 10, 16 clients, `duration` seconds. */
function pgbench(url: string): { tps: number; latencyMs: number } {
  const target = new URL(url);
  const admin = new URL(url);
  const database = `lg_pgbench_${randomBytes(4).toString('hex')}`;
  target.pathname = `/${database}`;
  const psql = (sql: string) => execFileSync('psql', [admin.toString(), '-Atqc', sql], { stdio: ['ignore', 'pipe', 'inherit'] });
  psql(`create database ${database}`);
  try {
    execFileSync(pgbenchBinary(), ['-i', '-s', '10', '-q', target.toString()], { stdio: ['ignore', 'ignore', 'pipe'] });
    const out = execFileSync(pgbenchBinary(), ['-c', '16', '-j', '2', '-T', String(duration), '-M', 'prepared', target.toString()], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN);
    console.log(`pgbench TPC-B, scale 10, 16 clients: ${tps.toFixed(0)} tps, latency average ${latencyMs} ms`);
    return { tps, latencyMs };
  } finally {
    psql(`drop database if exists ${database}`);
  }
}

function pgbenchBinary(): string {
  for (const candidate of [
    '/usr/lib/postgresql/17/bin/pgbench',
    '/usr/lib/postgresql/16/bin/pgbench',
    '/usr/lib/postgresql/15/bin/pgbench',
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return 'pgbench';
}

/** Two gateway processes on one PostgreSQL schema and Redis, then pgbench on the same server. */
async function postgresRound(databaseUrl: string, redisUrl: string) {
  const connections = Number(process.env.BENCH_PG_CONNECTIONS ?? 64);
  const target = await postgresTarget(databaseUrl, redisUrl);
  const members = target.members;
  const pgSeedFile = path.join(dataDir, 'seed-pg.json');
  writeFileSync(pgSeedFile, JSON.stringify(target.seed));
  const env = { ...gatewayEnv(path.join(dataDir, 'data-pg'), pgSeedFile, logLevel), ...target.env };
  const servers: ServerProcess[] = [];
  try {
    // One after the other: the first applies the migrations and the seed.
    for (const n of [1, 2]) servers.push(await startServer(root, path.join(dataDir, `gateway-pg-${n}.log`), [GATEWAY_ENTRY], env));
    const gateway = await measureServers(
      'gateway earn path, PostgreSQL + Redis, 2 processes',
      servers,
      connections,
      members,
      ['postgres', 'redis-server'],
      pgWarmUp,
    );
    for (const server of servers.splice(0)) await server.stop();
    const baseline = pgbench(databaseUrl);
    return { gateway, baseline };
  } finally {
    for (const server of servers) await server.stop();
    await target.dispose();
  }
}

try {
  const rounds = [];
  if (targets.has('embedded')) for (const connections of connectionCounts) rounds.push(await round(connections));
  const pg =
    targets.has('postgres') && process.env.DATABASE_URL && process.env.REDIS_URL
      ? await postgresRound(process.env.DATABASE_URL, process.env.REDIS_URL)
      : null;
  const row = (r: Measured) =>
    `| ${r.connections} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.non2xx} | ${r.main.toFixed(0)} | ${r.other.toFixed(0)} | ${r.client.toFixed(0)} | ${r.ceiling.toFixed(0)} | ${r.rssIdle.toFixed(0)} | ${r.rssPeak.toFixed(0)} |`;
  const table = [
    `Run: ${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version},`,
    `${duration} s per target after a 3 s warm-up (the PostgreSQL round after ${pgWarmUp} s), except the hand-written handler and the earn path with and without the journal: side by side, ${slices} rounds of ${sliceSeconds} s each in turn after a ${sideWarmUp} s warm-up each; gateway LOG_LEVEL=${logLevel}, gateway run from ${compiled ? 'the compiled build (gateway/dist/main.js, plain node)' : 'the TypeScript sources (tsx)'}.`,
    '',
    '| connections | target | req/s | p50 ms | p99 ms | 200s | non-2xx | CPU µs/request: server main thread | server other threads | load generator | CPU ceiling req/s | RSS MiB idle | RSS MiB peak |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rounds.flatMap(({ rows }) => rows.map(row)),
    ...(pg ? [row(pg.gateway)] : []),
    '',
    ...rounds.map(
      ({ bare, httpPath, gateway, noJournal, randomIds, journal, versus, perRound }) =>
        `- **${gateway.connections} connections: the durable earn path serves ${(versus.share * 100).toFixed(1)} % of the requests per second of the handler a team would write** ` +
        `(p99 ${versus.p99.toFixed(2)}× the handler's; the two side by side, ${slices} rounds of ${sliceSeconds} s each: per round ${spread(perRound.versus)}), ` +
        `and **${pct(gateway, bare)} of bare Fastify's** ` +
        `at ${(gateway.main + gateway.other).toFixed(0)} µs of server CPU per earn (both threads), ` +
        `${((gateway.main + gateway.other) / (bare.main + bare.other)).toFixed(1)}× bare Fastify's ${(bare.main + bare.other).toFixed(0)} µs per request ` +
        `(the HTTP path alone — auth, validation, cache, rate limit, log — ${pct(httpPath, bare)}). ` +
        `**The delivery journal costs ${(journal.cost * 100).toFixed(1)} % of throughput** ` +
        `(${gateway.rps.toFixed(0)} req/s with it, ${noJournal.rps.toFixed(0)} without, side by side in the same rounds: per round ${spread(perRound.journal)}; ` +
        `${journal.cpu.toFixed(0)} µs of server CPU per earn). ` +
        `With random transaction ids (UUIDs, as Square and Clover send them) it serves ${pct(randomIds, bare)} ` +
        `(${((randomIds.rps / gateway.rps) * 100).toFixed(0)} % of the ordered ids' rate) at ${(randomIds.main + randomIds.other).toFixed(0)} µs per earn, p99 ${randomIds.p99} ms.`,
    ),
    ...(pg
      ? [
          `- **PostgreSQL, 2 gateway processes, ${pg.gateway.connections} connections: ${pg.gateway.rps.toFixed(0)} earn/s (p50 ${pg.gateway.p50} ms, p99 ${pg.gateway.p99} ms of all requests; each process's ${pg.gateway.processP99.join(' and ')} ms) against pgbench TPC-B's ${pg.baseline.tps.toFixed(0)} tps** (scale 10, 16 clients, same server, same run): ${((pg.gateway.rps / pg.baseline.tps) * 100).toFixed(0)} %. ` +
            `CPU per earn: the gateways' main threads ${pg.gateway.main.toFixed(0)} µs, their other threads ${pg.gateway.other.toFixed(0)} µs, ` +
            `PostgreSQL ${(pg.gateway.services.postgres ?? 0).toFixed(0)} µs, Redis ${(pg.gateway.services['redis-server'] ?? 0).toFixed(0)} µs, the load generator ${pg.gateway.client.toFixed(0)} µs.`,
        ]
      : ['- PostgreSQL round not run (set DATABASE_URL and REDIS_URL).']),
  ].join('\n');
  if (targets.has('embedded') && targets.has('postgres')) writeResults(path.join(root, 'docs', 'benchmarks.md'), table);
  else console.log(`${table}\n(a partial run, BENCH_TARGETS=${[...targets].join(',')}: docs/benchmarks.md left as it is)`);
  if (
    rounds.some(({ rows }) => rows.some((r) => r.non2xx > 0 || r.errors > 0)) ||
    (pg && (pg.gateway.non2xx > 0 || pg.gateway.errors > 0))
  ) {
    console.error('the gateway answered non-2xx or failed requests during the run: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  // BENCH_KEEP_DATA=1 keeps the targets' logs and data (for a run with BENCH_NODE_FLAGS=--trace-deopt, say).
  if (process.env.BENCH_KEEP_DATA) console.log(`targets' logs and data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
