// A worker entry for tests: the real engine worker, except that an earn whose transaction id
// starts with CRASH ends the thread at once (exit code 70), as a crash mid-call would, and one
// whose id starts with HOG keeps allocating until it holds 512 MiB (a leak that outgrows any
// sensible heap bound; without one the thread survives it).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (batch) => {
  // A batch crosses as one JSON string (worker-messages.ts packBatch), or as an array; anything
  // else (a service to host) is the real worker's alone.
  if (typeof batch !== 'string' && !Array.isArray(batch)) return;
  for (const message of typeof batch === 'string' ? JSON.parse(batch) : batch) {
    const id = String(message.argument?.transaction?.id);
    if (message.method === 'earn' && id.startsWith('CRASH')) process.exit(70);
    if (message.method === 'earn' && id.startsWith('HOG')) {
      globalThis.hog = Array.from({ length: 512 }, (_, i) => new Array(128 * 1024).fill(i)); // 512 × 1 MiB
    }
  }
});
await import('../engine-worker-boot.mjs');
