// A service for hostOnEngineThread's tests: says on which thread it runs and with what data, then
// echoes every message back, until its port is closed.
import { threadId } from 'node:worker_threads';

export function serve(port, data) {
  port.on('message', (message) => port.postMessage({ echo: message }));
  port.postMessage({ threadId, data });
}
