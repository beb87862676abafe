import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import type { EngineCallOptions } from '@loyalty-gateway/core';
import type { DatabaseOptions } from '@loyalty-gateway/storage';
import type { EmbeddedEngine, EngineNotice } from '../ledger/create-embedded-engine.js';
import {
  fromWireError,
  packBatch,
  unpackBatch,
  workerStopped,
  type CallMessage,
  type EngineWorkerData,
  type HostMessage,
  type NoticeMessage,
  type ReplyMessage,
  type StartMessage,
  type WireBatch,
  type WorkerMethod,
} from './worker-messages.js';

export interface WorkerEngineOptions {
  /** Opened by the worker itself (a SQLite file or a PostgreSQL URL; ':memory:' would be private to it). */
  database: DatabaseOptions;
  codePrefix?: string | undefined;
  /** PostgreSQL: the group commit's lanes (EmbeddedEngineOptions.groupCommitLanes). */
  groupCommitLanes?: number | undefined;
  /**
   * The worker's V8 heap bounds. A worker that outgrows them is stopped by Node
   * (ERR_WORKER_OUT_OF_MEMORY) and replaced like any other worker that dies. Default: Node's.
   */
  resourceLimits?: ResourceLimits | undefined;
  /**
   * Told each time a worker thread has started and opened the engine (the first, and any
   * restart), with its heap limit in bytes as V8 applied it (process-wide V8 flags such as
   * --max-old-space-size override `resourceLimits`; see the gateway's memory-bounds.ts).
   */
  onWorkerStart?: ((threadId: number, heapSizeLimit: number) => void) | undefined;
  /** Told when the worker thread stops unexpectedly, out of heap included (the next call starts a new one). */
  onWorkerExit?: ((detail: string) => void) | undefined;
  /** The engine's notices (EmbeddedEngineOptions.onNotice), from the worker thread. */
  onNotice?: ((notice: EngineNotice) => void) | undefined;
  /** The worker's entry module; tests wrap the real one (engine-worker-boot.mjs) to crash it. */
  entry?: URL | undefined;
}

/**
 * From source (tsx), a boot module registers tsx in the new thread before loading the worker; in
 * the production build (tools/build/bundle.mjs) the worker is its own bundle beside this one.
 */
const BOOT = import.meta.url.endsWith('.ts')
  ? new URL('./engine-worker-boot.mjs', import.meta.url)
  : new URL('./engine-worker.js', import.meta.url);

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** One running worker thread with its calls in flight. */
class EngineThread {
  private readonly pending = new Map<number, Pending>();
  /** Calls not yet sent to the worker (see send). */
  private outbox: CallMessage[] = [];
  private nextId = 1;
  private stopped: string | null = null;

  private constructor(
    private readonly worker: Worker,
    /** The thread's V8 heap limit in bytes, reported by the thread itself. */
    readonly heapSizeLimit: number,
    onStop: (detail: string) => void,
    onNotice: ((notice: EngineNotice) => void) | undefined,
  ) {
    worker.on('message', (message: WireBatch<ReplyMessage> | NoticeMessage) => {
      if (typeof message !== 'string' && !Array.isArray(message)) {
        onNotice?.(message.notice);
        return;
      }
      for (const reply of unpackBatch(message)) {
        const call = this.pending.get(reply.id);
        if (!call) continue;
        this.pending.delete(reply.id);
        if (reply.ok) call.resolve(reply.value);
        else call.reject(fromWireError(reply.error));
      }
    });
    // Out of heap (its resourceLimits) arrives here as code ERR_WORKER_OUT_OF_MEMORY: named in the detail.
    worker.on('error', (error: Error & { code?: string }) =>
      this.stop(`${error.name}${error.code ? ` (${error.code})` : ''}: ${error.message}`, onStop),
    );
    worker.on('exit', (code) => this.stop(`exit code ${code}`, onStop));
  }

  /** Start a worker and wait until its engine is open (migrations ran). */
  static async start(
    entry: URL,
    data: EngineWorkerData,
    resourceLimits: ResourceLimits | undefined,
    onStop: (detail: string) => void,
    onNotice?: (notice: EngineNotice) => void,
  ): Promise<EngineThread> {
    const worker = new Worker(entry, { workerData: data, ...(resourceLimits ? { resourceLimits } : {}) });
    let onMessage!: (message: StartMessage) => void;
    let onError!: (error: Error) => void;
    let onExit!: (code: number) => void;
    const started = await new Promise<StartMessage>((resolve, reject) => {
      onMessage = resolve;
      onError = reject;
      onExit = (code) => reject(new Error(`the engine worker exited with code ${code} while starting`));
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    }).finally(() => {
      // Only these: Worker keeps listeners of its own that deliver later messages.
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    });
    if (!started.started) {
      await worker.terminate();
      throw fromWireError(started.error);
    }
    return new EngineThread(worker, started.heapSizeLimit, onStop, onNotice);
  }

  get alive(): boolean {
    return this.stopped === null;
  }

  call(method: WorkerMethod, argument: unknown, options?: EngineCallOptions): Promise<unknown> {
    if (this.stopped !== null) return Promise.reject(workerStopped(this.stopped));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.outbox.push({ id, method, argument, options }) === 1) setImmediate(this.send);
    });
  }

  /**
   * The calls made since the last send, in one message: each postMessage has a fixed cost on both
   * threads (serialising, waking the other thread, dispatching the event); with one message per
   * call it was ~12 % of the event loop's profile on the earn path (docs/benchmarks.md). Sent once
   * this turn of the event loop has read what its sockets had (setImmediate), so calls arriving
   * together travel together, as one JSON string (packBatch). A thread stopped meanwhile has
   * already failed them (stop).
   */
  private readonly send = (): void => {
    const calls = this.outbox;
    this.outbox = [];
    if (this.stopped === null) this.worker.postMessage(packBatch(calls));
  };

  /** A port to `module`'s `serve(port, data)`, started on this thread (see hostOnEngineThread). */
  host(module: string, data: unknown): MessagePort {
    if (this.stopped !== null) throw workerStopped(this.stopped);
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ host: { module, data, port: port2 } } satisfies HostMessage, [port2]);
    return port1;
  }

  get threadId(): number {
    return this.worker.threadId;
  }

  /**
   * Ask the worker to close the engine and database (it first lets the calls in flight finish),
   * then end the thread. A call still unanswered after that is failed, never left pending.
   */
  async close(): Promise<void> {
    if (this.stopped === null) {
      await this.call('close', undefined).catch(() => undefined);
      this.stopped = 'closed';
    }
    await this.worker.terminate();
    for (const call of this.pending.values()) call.reject(workerStopped('the engine was closed'));
    this.pending.clear();
  }

  private stop(detail: string, onStop: (detail: string) => void): void {
    if (this.stopped !== null) return;
    this.stopped = detail;
    // Calls in flight have an unknown outcome: unavailable, so callers retry and the ledger dedupes.
    for (const call of this.pending.values()) call.reject(workerStopped(detail));
    this.pending.clear();
    onStop(detail);
  }
}

/** The embedded engine on its worker thread, which can host services of its owner beside it. */
export interface WorkerEngine extends EmbeddedEngine {
  /**
   * Start `module`'s `serve(port, data)` on the engine's thread and return the owner's end of its
   * port: work that would otherwise take a thread (and a V8 isolate, ~15 MiB) of its own, such as
   * the gateway's delivery journal writer. It shares the thread's turns with the engine, so it must
   * yield between slices of long work. When the thread dies (its port closes), the next call to
   * this starts the next thread, as the next engine call would.
   */
  hostOnEngineThread(module: string, data: unknown): Promise<MessagePort>;
}

/**
 * The embedded engine on its own worker thread. better-sqlite3 is synchronous: in the caller's
 * thread every statement and commit blocks the event loop, so HTTP parsing, auth and validation
 * wait behind the ledger. Here the ledger runs beside them. Same engine, same port, same errors
 * (coded errors cross as themselves); a worker that dies fails its calls in flight as
 * EngineUnavailableError and the next call starts a fresh worker on the same database.
 */
export async function createWorkerEngine(options: WorkerEngineOptions): Promise<WorkerEngine> {
  const data: EngineWorkerData = { database: options.database, codePrefix: options.codePrefix, groupCommitLanes: options.groupCommitLanes };
  const entry = options.entry ?? BOOT;
  const onStop = (detail: string) => {
    if (!closed) options.onWorkerExit?.(detail);
  };
  let closed = false;
  /** The thread started last, once it is open: calls go straight to it while it is alive. */
  let live: EngineThread | null = null;
  const start = () =>
    EngineThread.start(entry, data, options.resourceLimits, onStop, options.onNotice).then((started) => {
      live = started;
      options.onWorkerStart?.(started.threadId, started.heapSizeLimit);
      return started;
    });
  let thread: Promise<EngineThread> = start();
  await thread;

  const current = async (): Promise<EngineThread> => {
    const seen = thread;
    const running = await seen.catch(() => null);
    if (running?.alive) return running;
    // Only the first caller to find this thread dead starts the next one; the others wait for it.
    if (thread === seen) thread = start();
    return thread.catch((error: unknown) => {
      throw workerStopped(`a new worker could not start: ${(error as Error).message}`);
    });
  };
  // Calls issued and not yet answered: close() lets them finish first. A count and one reaction per
  // call, not a set of promises and two derived ones (catch, finally) per call on the earn path.
  let unanswered = 0;
  let allAnswered: (() => void) | null = null;
  const answered = (): void => {
    unanswered -= 1;
    if (unanswered === 0) allAnswered?.();
  };
  const call =
    <R>(method: WorkerMethod) =>
    (argument?: unknown, options?: EngineCallOptions): Promise<R> => {
      if (closed) return Promise.reject(new Error('the loyalty engine is closed'));
      const answer = (
        live?.alive ? live.call(method, argument, options) : current().then((running) => running.call(method, argument, options))
      ) as Promise<R>;
      unanswered += 1;
      answer.then(answered, answered);
      return answer;
    };

  return {
    earn: call('earn'),
    raiseSale: call('raiseSale'),
    previewEarn: call('previewEarn'),
    reverse: call('reverse'),
    withdrawRefunds: call('withdrawRefunds'),
    eligibility: call('eligibility'),
    redeem: call('redeem'),
    catalogSync: call('catalogSync'),
    findOutlet: call('findOutlet'),
    reversedOrders: call('reversedOrders'),
    listMerchants: call('listMerchants'),
    applySeed: call('applySeed'),
    ping: call('ping'),
    async hostOnEngineThread(module: string, data: unknown): Promise<MessagePort> {
      if (closed) throw new Error('the loyalty engine is closed');
      return (live?.alive ? live : await current()).host(module, data);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (unanswered > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
      const running = await thread.catch(() => null);
      await running?.close();
    },
  };
}
