// A worker entry for tests: the real engine worker, except that an earn whose transaction id
// starts with CRASH ends the thread at once (exit code 70), as a crash mid-call would.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.method === 'earn' && String(message.argument?.transaction?.id).startsWith('CRASH')) process.exit(70);
});
await import('../engine-worker-boot.mjs');
