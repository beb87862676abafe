import { Worker } from 'node:worker_threads';

export interface RunningService {
  app: { log: { info(object: Record<string, unknown>, message: string): void } };
  close(): Promise<void>;
}

/** How long closing may take before the process exits 1 anyway. */
export const CLOSE_LIMIT_MS = 10_000;
/** How long after CLOSE_LIMIT_MS a process still alive is killed by its watchdog thread. */
export const KILL_AFTER_MS = 5_000;

/**
 * The process entry point of a service: start it from the environment (an operator error —
 * bad config, bad seed file — prints its message alone and exits 1), then close gracefully on
 * SIGTERM / SIGINT, exiting 1 if closing takes more than `closeLimitMs` (10 s).
 *
 * That exit is a timer on the main thread, which cannot fire while something holds the thread
 * (seen once: a gateway whose stdout nobody read anymore, its main thread waiting in Atomics.wait
 * for minutes after its port had closed). So stopping also starts a watchdog thread: if the process
 * is still alive `killAfterMs` (5 s) after the limit, it writes one line to stderr and kills the
 * process (SIGKILL) — a stopping service always ends.
 */
export async function runService(
  start: () => Promise<RunningService>,
  isOperatorError: (error: unknown) => boolean,
  limits: { closeLimitMs?: number; killAfterMs?: number } = {},
): Promise<void> {
  const closeLimitMs = limits.closeLimitMs ?? CLOSE_LIMIT_MS;
  const killAfterMs = limits.killAfterMs ?? KILL_AFTER_MS;
  let running: RunningService;
  try {
    running = await start();
  } catch (error) {
    console.error(isOperatorError(error) ? (error as Error).message : error);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    startWatchdog(closeLimitMs + killAfterMs);
    setTimeout(() => process.exit(1), closeLimitMs).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/**
 * A thread of its own that kills the process `ms` from now unless it has exited by then (it does not
 * keep the process alive). Its line on stderr is written off the thread (libuv's pool) and the kill follows
 * 0.1 s later whether or not it was: a full pipe can hold neither.
 */
function startWatchdog(ms: number): void {
  const watchdog = new Worker(
    `const fs = require('node:fs');
     const { workerData } = require('node:worker_threads');
     setTimeout(() => {
       fs.write(2, 'still stopping ' + workerData.ms + ' ms after the signal (the main thread is held): killed\\n', () => {});
       setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);
     }, workerData.ms);`,
    {
      eval: true,
      workerData: { ms },
      stdout: false,
      stderr: false,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    },
  );
  watchdog.unref();
}
