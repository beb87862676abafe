/**
 * A child process for run-service.test.ts: a service whose close() holds the main thread for ever
 * (as a synchronous write to a pipe nobody reads would), so only the watchdog can end it. It prints
 * `ready` once its signal handlers are in place.
 */
import { runService } from '../service/run-service.js';

void runService(
  async () => ({
    app: { log: { info: () => undefined } },
    close: async () => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  }),
  () => false,
  { closeLimitMs: 500, killAfterMs: 500 },
).then(() => {
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1_000);
});
