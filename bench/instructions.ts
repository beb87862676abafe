/**
 * Instructions per signed earn, counted by valgrind (callgrind), for comparing builds and settings
 * on a machine whose speed cannot be trusted: a shared or throttled host moves requests per second
 * and CPU µs per request by ±50 % between minutes, while the instructions a request executes stay
 * within a few per cent (valgrind counts them on a simulated CPU, whatever else the machine does).
 *
 *   npm run build && npx tsx bench/instructions.ts                 (the compiled gateway, journal on)
 *   GATEWAY_JOURNAL_DAYS=0 npx tsx bench/instructions.ts           (journal off)
 *   BENCH_ENTRY=path/to/other/main.js npx tsx bench/instructions.ts
 *
 * The gateway (all its threads: event loop, engine worker, journal writer) runs under callgrind;
 * BENCH_WARMUP signed sales (default 1,500) let V8 optimise the hot path, the counters are zeroed
 * (callgrind_control -z), BENCH_REQUESTS more (default 2,000) are sent by autocannon at
 * BENCH_CONNECTIONS (default 16), and the counters are dumped (callgrind_control -d). Reported:
 * instructions per request, all threads together. valgrind runs the threads one at a time and
 * ~50× slower: expect a few minutes a run. Not a latency or throughput figure.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seed } from './seed.js';
import { signedSale } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.env.BENCH_ENTRY ?? 'gateway/dist/main.js';
const warmup = Number(process.env.BENCH_WARMUP ?? 1_500);
const requests = Number(process.env.BENCH_REQUESTS ?? 2_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-instructions-'));
writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
const HOST = '127.0.0.1';

const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--smc-check=all-non-file', // V8 writes and rewrites machine code
    `--callgrind-out-file=${path.join(dir, 'callgrind.out.%p')}`,
    process.execPath,
    '--enable-source-maps',
    entry,
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST,
      GATEWAY_ENV: 'uat',
      GATEWAY_DATA_DIR: path.join(dir, 'data'),
      GATEWAY_SEED_FILE: path.join(dir, 'seed.json'),
      GATEWAY_RATE_LIMIT: '100000000',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let log = '';
child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
child.stderr.on('data', () => undefined); // valgrind's own notes
const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

async function port(): Promise<number> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const match = /"port":(\d+)|127\.0\.0\.1:(\d+)/.exec(log);
    if (match) return Number(match[1] ?? match[2]);
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the gateway did not start under valgrind:\n${log.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function send(target: number, amount: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${target}`,
    connections,
    amount,
    timeout: 120,
    requests: [{ method: 'POST', path: '/webhooks/generic', setupRequest: (req) => ({ ...req, ...signedSale() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.total;
}

/** callgrind_control exits 0 even when it finds no such process: its answer says. */
function control(command: '-z' | '-d'): void {
  // valgrind names its vgdb pipes after $HOST, which the gateway's environment sets to its listen address.
  const answer = execFileSync('callgrind_control', [command, String(child.pid)], { encoding: 'utf8', env: { ...process.env, HOST } });
  if (!/OK\./.test(answer)) throw new Error(`callgrind_control ${command}: ${answer}`);
}

/**
 * Instructions (Ir) in the dump callgrind_control -d asked for. valgrind carries the command out
 * when the program next runs (an idle gateway waits in epoll, and vgdb may not interrupt it here):
 * a /health request every half second wakes it.
 */
async function dumpedInstructions(target: number): Promise<number> {
  const file = path.join(dir, `callgrind.out.${child.pid}.1`);
  for (let waited = 0; waited < 120_000; waited += 500) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const totals = /^totals:\s+(\d+)/m.exec(text);
    if (totals) return Number(totals[1]);
    await fetch(`http://127.0.0.1:${target}/health`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no dump in ${file}`);
}

try {
  const target = await port();
  await send(target, warmup);
  control('-z');
  const sent = await send(target, requests);
  control('-d');
  const instructions = await dumpedInstructions(target);
  console.log(
    `${entry}${process.env.GATEWAY_JOURNAL_DAYS === '0' ? ' (journal off)' : ''}: ${sent} signed earns, ${(instructions / sent / 1000).toFixed(0)} k instructions per earn (all threads)`,
  );
} finally {
  child.kill('SIGTERM');
  await exited;
}
