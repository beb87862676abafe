/**
 * Instructions per earn: the compiled gateway run under valgrind's callgrind, which counts the
 * instructions its threads execute. A count does not depend on how fast the host is or what else
 * runs on it, so it tells two builds apart by a few per cent where the CPU-time figures of
 * `npm run bench` cannot: on a shared 2-core host they move by 20-40 % between runs of one build.
 *
 *   npm run build && npx tsx bench/instructions.ts
 *   node tools/build/bundle.mjs gateway .data/base        (a baseline's build, before a change)
 *   BENCH_ENTRIES=.data/base/main.js,gateway/dist/main.js npx tsx bench/instructions.ts   (alternated)
 *   BENCH_ENTRIES='gateway/dist/main.js,gateway/dist/main.js?GATEWAY_JOURNAL_DAYS=0' ...   (an entry's own environment)
 *   BENCH_ENTRIES=bench/hand-written-server.ts,gateway/dist/main.js ...   (the handler a team would write, through tsx)
 *
 * Each entry, BENCH_ROUNDS rounds (default 2), alternated: start under callgrind (V8 with
 * `--predictable`, see `flags`), warm up with BENCH_WARMUP signed earns (default 600), zero the
 * counters (callgrind_control), send BENCH_REQUESTS more (default 600) at BENCH_CONNECTIONS
 * (default 8), dump, and divide by the earns answered 2xx. About 2.5 minutes a round. It is not
 * a throughput figure: valgrind runs the code ~50x slower, so the batches are not those of full
 * load and the kernel's share (socket writes) is not counted. It measures the work per earn in
 * user space. Needs valgrind (Debian's package). The journal's writes land when their 250 ms
 * batch does, so a tail of them may fall outside the window.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seed } from './seed.js';
import { gatewayEnv, startServer } from './server-process.js';
import { signedSale } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = (process.env.BENCH_ENTRIES ?? 'gateway/dist/main.js').split(',').map((e) => e.trim());
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const warmUp = Number(process.env.BENCH_WARMUP ?? 600);
const requests = Number(process.env.BENCH_REQUESTS ?? 600);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
/**
 * V8 flags of the gateway (BENCH_NODE_FLAGS). Default `--predictable`: no concurrent compiler or
 * GC threads, so what runs when depends on the code, not on the host's timing. One build's counts
 * then repeat within 0.3-1.4 % on a quiet machine (2-4 % without it; up to 5.7 % beside a heavy
 * process, since the engine's and the journal's batch sizes follow the machine's load: compare
 * alternated pairs). V8's compiling and collecting then run on the
 * JavaScript threads themselves (the event loop's count includes its GC), so compare builds by
 * their "all threads" figure too.
 */
const flags = (process.env.BENCH_NODE_FLAGS ?? '--predictable').split(/\s+/).filter(Boolean);

/** `amount` signed earns at `connections`; the count answered 2xx. */
async function earns(port: number, amount: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    amount,
    timeout: 60,
    requests: [{ method: 'POST', path: '/webhooks/generic', setupRequest: (req) => ({ ...req, ...signedSale() }) }],
  });
  return result.requests.total - result.non2xx - result.errors;
}

/**
 * The instructions of a callgrind dump (`--separate-threads=yes`: a file per thread, `cg.<pid>.<dump>-<thread>`):
 * the main thread's (thread 01, the event loop) and all threads' together.
 */
function dumpedInstructions(dir: string, pid: number): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.`))) {
    const count = Number(/^summary: (\d+)/m.exec(readFileSync(path.join(dir, file), 'utf8'))?.[1] ?? 0);
    all += count;
    if (file.endsWith('-01')) main += count;
  }
  return { main, all };
}

/**
 * A callgrind_control command to the gateway under valgrind. vgdb names its pipes after the
 * process's HOST variable, which the gateway's environment sets (its listen address): the same here.
 */
function control(command: '--zero' | '--dump', pid: number, host: string | undefined): void {
  execFileSync('callgrind_control', [command, String(pid)], { stdio: 'ignore', env: { ...process.env, HOST: host } });
}

interface Count {
  /** Instructions per earn on the event loop's thread. */
  main: number;
  /** Instructions per earn on all threads. */
  all: number;
  served: number;
}

async function measure(entry: string, dataDir: string): Promise<Count> {
  const seedFile = path.join(dataDir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const outDir = path.join(dataDir, 'callgrind');
  const [file = entry, query = ''] = entry.split('?', 2);
  // DATA_DIR: the hand-written handler's (bench/hand-written-server.ts, a `.ts` entry run through tsx); the gateway reads GATEWAY_DATA_DIR.
  const env: Record<string, string> = {
    ...gatewayEnv(path.join(dataDir, 'data'), seedFile),
    DATA_DIR: path.join(dataDir, 'data'),
    ...Object.fromEntries(new URLSearchParams(query)),
  };
  mkdirSync(outDir, { recursive: true });
  mkdirSync(env.DATA_DIR!, { recursive: true });
  const server = await startServer(
    root,
    path.join(dataDir, 'gateway.log'),
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--separate-threads=yes',
      `--callgrind-out-file=${outDir}/cg.%p`,
      process.execPath,
      ...flags,
      '--enable-source-maps',
      ...(file.endsWith('.ts') ? ['--import', 'tsx'] : []),
      path.resolve(root, file),
    ],
    env,
    'valgrind',
    // BENCH_START_MS: how long the gateway may take to listen under valgrind (longer on a busy host).
    Number(process.env.BENCH_START_MS ?? 300_000),
  );
  const pid = server.child.pid!;
  try {
    await earns(server.port, warmUp);
    control('--zero', pid, env.HOST);
    const served = await earns(server.port, requests);
    control('--dump', pid, env.HOST);
    // callgrind_control returns once the dump is asked for; the files follow.
    const deadline = Date.now() + 30_000;
    let counted = { main: 0, all: 0 };
    while (Date.now() < deadline && (counted = dumpedInstructions(outDir, pid)).main === 0) await new Promise((r) => setTimeout(r, 500));
    return { main: counted.main / served, all: counted.all / served, served };
  } finally {
    await server.stop();
  }
}

const results = new Map<string, Count[]>(entries.map((e) => [e, []]));
const thousands = (n: number) => Math.round(n / 1000).toLocaleString('en');
for (let round = 0; round < rounds; round += 1) {
  for (const entry of entries) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lg-instr-'));
    try {
      const count = await measure(entry, dataDir);
      results.get(entry)!.push(count);
      console.log(
        `${entry}: ${thousands(count.main)}k instructions per earn on the event loop, ${thousands(count.all)}k on all threads (${count.served} earns)`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
for (const [entry, counts] of results) {
  const summary = (pick: (c: Count) => number) => {
    const values = counts.map(pick);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return `${thousands(mean)}k (spread ${(((Math.max(...values) - Math.min(...values)) / mean) * 100).toFixed(1)} %)`;
  };
  console.log(
    `${entry}, ${counts.length} rounds: event loop ${summary((c) => c.main)}, all threads ${summary((c) => c.all)} instructions per earn`,
  );
}
