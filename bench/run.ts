/**
 * Benchmark: bare Fastify vs the gateway's full signed earn path (v1 HMAC, zod envelope, cache,
 * durable SQLite ledger), in the same run, on loopback, with autocannon.
 *
 *   npm run bench                 (defaults: 10 s per target after a 3 s warm-up, at 32 then 100 connections)
 *   BENCH_DURATION=20 BENCH_CONNECTIONS=64 npm run bench      (one or more comma-separated counts)
 *
 * Every request carries a fresh transaction id and a fresh signature, so each one is a real earn
 * (points credited, ledger rows written), never a duplicate answered from cache. The bare target
 * receives the same signed bodies so client-side costs are equal. Writes docs/benchmarks.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, startServer } from './server-process.js';
import { STORE, SECRET, load } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? '32,100').split(',').map(Number);

const seed = {
  codePrefix: 'LOYAL',
  vendors: [{ slug: 'bench-pos', name: 'Bench POS', tier: 'generic' }],
  merchants: [{
    id: 'm-bench', name: 'Bench Coffee', currency: 'USD', defaultCountryCode: '1', earnRate: 1, redemptionRate: 100,
    outlets: [{ id: 'o-bench', name: 'Bench outlet' }],
    connections: [{ vendor: 'bench-pos', storeId: STORE, outletId: 'o-bench', secret: SECRET, active: true }],
    members: [{ membershipId: 'MBR-BENCH', phone: '+15550109999', email: 'bench@example.com', externalId: 'crm-bench', points: 0 }],
    rewards: [{ id: '0b6f8a3e-1c1d-4a7e-9d0a-7f1f2b9d0c11', type: 'STAMP', title: 'Coffee card', stampsRequired: 10,
      match: { skus: ['COF-LATTE'], keywords: ['coffee'] } }],
    issuedCodes: [],
  }],
};

async function measure(name: string, command: string[], env: Record<string, string>, connections: number) {
  const server = await startServer(root, path.join(dataDir, `${command[0]!.replace(/\W+/g, '-')}-${connections}.log`), command, env);
  try {
    await load(server.port, 3, connections);
    const before = server.cpu();
    const clientBefore = process.cpuUsage();
    const result = await load(server.port, duration, connections);
    const clientUsage = process.cpuUsage(clientBefore);
    const client = (clientUsage.user + clientUsage.system) / Math.max(1, result.requests.total);
    const cpu = cpuPerRequest(before, server.cpu(), result.requests.total);
    const main = cpu.main ?? 0;
    const other = Object.entries(cpu).filter(([thread]) => thread !== 'main').reduce((sum, [, us]) => sum + us, 0);
    const ok = result.statusCodeStats['200']?.count ?? 0;
    console.log(`${name}, ${connections} connections: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, server CPU µs/request: main thread ${main.toFixed(0)}, other threads ${other.toFixed(0)}, client ${client.toFixed(0)}`);
    return { name, connections, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, ok, non2xx: result.non2xx, errors: result.errors, main, other, client,
      /** Requests per second if every core did nothing but this: the machine's ceiling for this target. */
      ceiling: (os.cpus().length * 1e6) / (main + other + client) };
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
type Measured = Awaited<ReturnType<typeof measure>>;
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const pct = (a: Measured, b: Measured) => `${((a.rps / b.rps) * 100).toFixed(1)} %`;

/** The three targets one after the other at one connection count: their ratio is taken within this round. */
async function round(connections: number): Promise<{ bare: Measured; httpPath: Measured; gateway: Measured }> {
  const bare = await measure('bare Fastify', ['bench/bare-server.ts'], { PORT: '0' }, connections);
  const httpPath = await measure('gateway HTTP path, no ledger', ['bench/gateway-without-ledger.ts'], { LOG_LEVEL: logLevel }, connections);
  const gateway = await measure('gateway earn path (SQLite ledger)', ['gateway/src/main.ts'], {
    PORT: '0', HOST: '127.0.0.1', GATEWAY_ENV: 'uat', GATEWAY_DATA_DIR: path.join(dataDir, `data-${connections}`), GATEWAY_SEED_FILE: seedFile,
    GATEWAY_RATE_LIMIT: '100000000', LOG_LEVEL: logLevel, DATABASE_URL: '', REDIS_URL: '',
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
  }, connections);
  console.log(`ratio at ${connections} connections: ${((gateway.rps / bare.rps) * 100).toFixed(1)} % of bare Fastify`);
  return { bare, httpPath, gateway };
}

try {
  const rounds = [];
  for (const connections of connectionCounts) rounds.push(await round(connections));
  const table = [
    `Run: ${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version},`,
    `${duration} s per target after a 3 s warm-up, gateway LOG_LEVEL=${logLevel}; the three targets of a row group ran one after the other.`,
    '',
    '| connections | target | req/s | p50 ms | p99 ms | 200s | non-2xx | CPU µs/request: server main thread | server other threads | load generator | CPU ceiling req/s |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rounds.flatMap(({ bare, httpPath, gateway }) => [bare, httpPath, gateway].map((r) =>
      `| ${r.connections} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.non2xx} | ${r.main.toFixed(0)} | ${r.other.toFixed(0)} | ${r.client.toFixed(0)} | ${r.ceiling.toFixed(0)} |`)),
    '',
    ...rounds.map(({ bare, httpPath, gateway }) =>
      `- **${gateway.connections} connections: the durable earn path serves ${pct(gateway, bare)} of bare Fastify's requests per second** ` +
      `(the HTTP path alone — auth, validation, cache, rate limit, log — ${pct(httpPath, bare)}).`),
  ].join('\n');
  writeResults(path.join(root, 'docs', 'benchmarks.md'), table);
  if (rounds.some(({ gateway }) => gateway.non2xx > 0 || gateway.errors > 0)) {
    console.error('the gateway answered non-2xx or failed requests during the run: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
