/**
 * A benchmark target as a child process: started with its output in a file (never through the
 * load generator's process, which would pay for draining the target's log), and measured from
 * /proc: CPU time per thread, so a run can say how much of a request each thread costs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** CPU microseconds so far, per thread ('main' is the event loop; others by thread name). */
  cpu(): Record<string, number>;
  /** Resident set size now, in bytes (the whole process: every thread, the engine's included). */
  rss(): number;
  /** Minor page faults so far (the whole process): pages the kernel mapped in, each one zeroed or found in its cache. */
  faults(): number;
  stop(): Promise<void>;
}

/** Minor page faults of a process so far, from /proc (0 once it has exited). */
export function processFaults(pid: number): number {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(raw.slice(raw.lastIndexOf(')') + 2).split(' ')[7]);
  } catch {
    return 0;
  }
}

/** VmRSS of a process from /proc, in bytes (0 once it has exited). */
export function processRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Sample `read` every `everyMs` until stopped: the peak and the mean of what it read. Memory is
 * reported from samples taken during the run, not from one reading at its end.
 */
export function sampler(read: () => number, everyMs = 250): { stop(): { peak: number; mean: number; samples: number } } {
  let peak = 0;
  let sum = 0;
  let samples = 0;
  const take = () => {
    const value = read();
    if (value === 0) return;
    peak = Math.max(peak, value);
    sum += value;
    samples += 1;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peak, mean: samples === 0 ? 0 : sum / samples, samples };
    },
  };
}

/**
 * How a target's entry is run: `.ts` sources through tsx (the development path), `.js` (the
 * production build, `npm run build`) with plain node and source maps.
 */
export function nodeArgs(args: string[]): string[] {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_ALLOC_PROF=DIR: where the main thread allocates (bench/alloc-sampler.cjs).
  const allocations = process.env.BENCH_ALLOC_PROF ? ['--require', fileURLToPath(new URL('./alloc-sampler.cjs', import.meta.url))] : [];
  // BENCH_NODE_FLAGS: node or V8 flags for the targets only (not the load generator), to compare runtime settings.
  const flags = [...profile, ...allocations, ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [])];
  return args[0]?.endsWith('.js') ? [...flags, '--enable-source-maps', ...args] : [...flags, '--import', 'tsx', ...args];
}

const LISTENING = /listening (\d+)|"port":(\d+)|127\.0\.0\.1:(\d+)/;
const TICK_US = 1e6 / 100; // /proc reports clock ticks (USER_HZ = 100 on Linux)

function threadCpu(pid: number): Record<string, number> {
  const dir = `/proc/${pid}/task`;
  if (!existsSync(dir)) return {};
  const out: Record<string, number> = {};
  for (const tid of readdirSync(dir)) {
    try {
      const raw = readFileSync(`${dir}/${tid}/stat`, 'utf8');
      // Node names its worker threads and V8's helpers alike ("node"): the thread id tells them apart.
      const name = tid === String(pid) ? 'main' : `${raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')'))}/${tid}`;
      const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_US;
    } catch {
      // the thread ended between listing and reading
    }
  }
  return out;
}

/**
 * CPU time (µs) of every process on the machine whose command is one of `names` (PostgreSQL's
 * backends and background processes, redis-server): what the servers a target talks to spent. A
 * process that ends between two readings takes its time with it; the pools' backends live through
 * a run (`spentBetween` of two `processesUsage` readings leaves such processes out).
 */
export function processesCpu(names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (const { name, us } of processesUsage(names).values()) out[name]! += us;
  return out;
}

type ProcessUsage = { name: string; us: number; diskRead: number };

/**
 * processesCpu per process: pid → its command, CPU time (µs) and the bytes it has read from the
 * disk itself (/proc/PID/io read_bytes: not what the OS's cache served; 0 where unreadable).
 */
export function processesUsage(names: readonly string[]): Map<string, ProcessUsage> {
  const out = new Map<string, ProcessUsage>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')'));
      if (!names.includes(name)) continue;
      const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
      let diskRead = 0;
      try {
        diskRead = Number(/^read_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
      } catch {
        // another user's process, without root
      }
      out.set(pid, { name, us: (Number(fields[11]) + Number(fields[12])) * TICK_US, diskRead });
    } catch {
      // the process ended between listing and reading
    }
  }
  return out;
}

/** CPU time (µs) and disk bytes read between two readings of processesUsage, counting only processes in both (an ended process's share is gone). */
export function spentBetween(before: Map<string, ProcessUsage>, after: Map<string, ProcessUsage>): { us: number; diskRead: number } {
  const spent = { us: 0, diskRead: 0 };
  for (const [pid, now] of after) {
    const then = before.get(pid)?.name === now.name ? before.get(pid) : undefined;
    spent.us += now.us - (then?.us ?? 0);
    spent.diskRead += now.diskRead - (then?.diskRead ?? 0);
  }
  return spent;
}

/**
 * Start a target: `args` run with this node (nodeArgs), or, when `command` is given, that
 * executable with `args` as they are (a launcher script such as gateway/bin/start). `startMs`: how
 * long it may take to listen (longer under valgrind).
 */
export async function startServer(
  root: string,
  logFile: string,
  args: string[],
  env: Record<string, string>,
  command?: string,
  startMs = 60_000,
): Promise<ServerProcess> {
  const child = spawn(command ?? process.execPath, command ? args : nodeArgs(args), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + startMs;
  for (;;) {
    const match = LISTENING.exec(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    if (match) {
      const port = Number(match[1] ?? match[2] ?? match[3]);
      return {
        child,
        port,
        cpu: () => threadCpu(child.pid!),
        rss: () => processRss(child.pid!),
        faults: () => processFaults(child.pid!),
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not start (see ${path.basename(logFile)}: ${readFileSync(logFile, 'utf8').slice(-500)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Per-thread CPU microseconds between two readings, divided by the requests served. */
export function cpuPerRequest(before: Record<string, number>, after: Record<string, number>, requests: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, us] of Object.entries(after)) {
    const spent = us - (before[name] ?? 0);
    if (spent > 0) out[name] = spent / Math.max(1, requests);
  }
  return out;
}

/**
 * The environment every benchmark starts a gateway with: its own data directory and seed, the
 * embedded engine on SQLite (no PostgreSQL or Redis unless the caller sets them), a rate limit no
 * load reaches, a fixed master key; callers add or override what their target needs.
 */
export function gatewayEnv(dataDir: string, seedFile: string, logLevel = 'info'): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_RATE_LIMIT: '100000000',
    LOG_LEVEL: logLevel,
    DATABASE_URL: '',
    REDIS_URL: '',
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
  };
}
