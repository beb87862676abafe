/**
 * The worker thread's side of createWorkerEngine: the engine's boot in the gateway process. Opens
 * and migrates the database, opens the embedded engine,
 * then answers every call it is sent (calls and replies travel in batches, one message each way per
 * turn of the event loop); every failure is sent back coded. Besides the engine it runs only the
 * services its owner asks it to host (hostOnEngineThread), each on its own port.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { EmbeddedEngine } from '../ledger/create-embedded-engine.js';
import { openEngine } from '../ledger/open-engine.js';
import {
  isHostMessage,
  packBatch,
  toWireError,
  type HostFailedMessage,
  type HostMessage,
  unpackBatch,
  type CallMessage,
  type EngineWorkerData,
  type NoticeMessage,
  type ReplyMessage,
  type StartMessage,
  type WireBatch,
} from './worker-messages.js';

const port = parentPort!;
const data = workerData as EngineWorkerData;

/** Opens and migrates the database, then the engine (openEngine); `close()` closes both. */
const open = (): Promise<EmbeddedEngine> =>
  openEngine({
    database: data.database,
    ...(data.codePrefix === undefined ? {} : { codePrefix: data.codePrefix }),
    ...(data.groupCommitLanes === undefined ? {} : { groupCommitLanes: data.groupCommitLanes }),
    onNotice: (notice) => port.postMessage({ notice } satisfies NoticeMessage),
  });

/**
 * Run a service of the owner's on this thread (its module's `serve(port, data)`). What it does
 * there is its own; a failure to load or start it is told on its port, which is then closed.
 */
function host({ module, data, port: servicePort }: HostMessage['host']): void {
  import(module)
    .then((loaded: { serve?: (port: MessagePort, data: unknown) => void }) => {
      if (typeof loaded.serve !== 'function') throw new Error(`${module} exports no serve(port, data)`);
      loaded.serve(servicePort, data);
    })
    .catch((error: unknown) => {
      servicePort.postMessage({ hostFailed: (error as Error).message ?? String(error) } satisfies HostFailedMessage);
      servicePort.close();
    });
}

async function answer(engine: EmbeddedEngine, message: CallMessage): Promise<ReplyMessage> {
  try {
    switch (message.method) {
      case 'close':
        await engine.close();
        return { id: message.id, ok: true, value: undefined };
      case 'ping':
        return { id: message.id, ok: true, value: await engine.ping() };
      default: {
        const call = engine[message.method] as (argument: unknown, options: unknown) => Promise<unknown>;
        return { id: message.id, ok: true, value: await call(message.argument, message.options) };
      }
    }
  } catch (error) {
    return { id: message.id, ok: false, error: toWireError(error) };
  }
}

try {
  const engine = await open();
  const inFlight = new Set<Promise<unknown>>();
  // Replies answered since the last send, in one message (see EngineThread's send on the other side).
  let outbox: ReplyMessage[] = [];
  const send = () => {
    const replies = outbox;
    outbox = [];
    if (replies.length > 0) port.postMessage(packBatch(replies));
  };
  const reply = (message: ReplyMessage) => {
    if (outbox.push(message) === 1) setImmediate(send);
  };
  port.on('message', (batch: WireBatch<CallMessage> | HostMessage) => {
    if (isHostMessage(batch)) return host(batch.host);
    for (const message of unpackBatch(batch)) {
      if (message.method === 'close') {
        // Let the calls in flight finish and answer before the engine and database close under them.
        void Promise.allSettled([...inFlight])
          .then(() => answer(engine, message))
          .then((closed) => {
            send();
            port.postMessage([closed]);
            port.close();
          });
        continue;
      }
      const answered = answer(engine, message).then(reply);
      inFlight.add(answered);
      void answered.finally(() => inFlight.delete(answered));
    }
  });
  port.postMessage({ started: true, heapSizeLimit: getHeapStatistics().heap_size_limit } satisfies StartMessage);
} catch (error) {
  port.postMessage({ started: false, error: toWireError(error) } satisfies StartMessage);
  port.close();
}
