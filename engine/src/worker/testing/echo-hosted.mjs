// A companion task for tests (WorkerEngine.host): answers each message on its port with the
// message, the data it was started with and the thread it runs in; started with 'throw', it throws.
import { threadId } from 'node:worker_threads';

export function hosted(port, data) {
  if (data === 'throw') throw new Error('this companion cannot start');
  port.on('message', (message) => port.postMessage({ message, data, threadId }));
}
