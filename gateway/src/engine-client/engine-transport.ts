// One file: the transport is one closure over its undici pool, call slots and batch state; splitting it would turn that shared state into parameters.
import { traceIds, trimTrailingSlashes } from '@loyalty-gateway/core';
import { BATCH_PATH, ENGINE_BUDGET_HEADER, type BatchCall, type BatchOperation } from '@loyalty-gateway/engine';
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { CallSlots } from './call-slots.js';
import { engineUnavailable, errorFromAnswer } from './engine-call-failure.js';

export interface EngineTransportOptions {
  url: URL;
  token: string | undefined;
  timeoutMs: number;
  connections: number;
  /** Kept back from the budget sent to the engine: time for the answer to travel back. */
  marginMs: number;
  /**
   * Calls one batch request (`POST /v1/commands`) carries at most; 0 sends every call on its own
   * single-command endpoint, as before batches existed.
   */
  maxBatch: number;
}

/**
 * One JSON call to the engine service, given up at `deadline` (epoch ms); throws only
 * EngineError / EngineUnavailableError.
 */
export interface EngineTransport {
  call<T>(method: 'GET' | 'POST', path: string, body: unknown, deadline: number): Promise<T>;
  close(): Promise<void>;
}

const isTimeout = (error: unknown): boolean => {
  const e = error as { name?: string; code?: string } | null;
  return (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT'
  );
};

const detail = (error: unknown): string => {
  const e = error as { code?: string; message?: string } | null;
  return [e?.code, e?.message].filter(Boolean).join(' ') || String(error);
};

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** An answer → the call's value; a 2xx without a JSON body is unavailable (a proxy's page, a truncated body). */
function valueOf<T>(label: string, status: number, json: unknown): T {
  if (status >= 200 && status < 300) {
    if (json === undefined) throw engineUnavailable('bad_response', `${label}: the engine service answered ${status} without a JSON body`);
    return json as T;
  }
  throw errorFromAnswer(label, status, json);
}

/** The single-command endpoints a batch may carry, by path (`/v1/earn` → `earn`); catalog-sync (bodies up to 16 MiB) goes alone. */
const BATCHED: ReadonlyMap<string, BatchOperation> = new Map(
  (
    [
      'earn',
      'raise-sale',
      'preview-earn',
      'reverse',
      'withdraw-refunds',
      'eligibility',
      'redeem',
      'find-outlet',
      'reversed-orders',
    ] as const
  ).map((op) => [`/v1/${op}`, op]),
);

/** A call waiting for, or riding in, a batch. */
interface Queued {
  label: string;
  path: string;
  op: BatchOperation;
  body: unknown;
  deadline: number;
  /** The engine budget it was sent with (for the timeout's message); undefined while queued. */
  budget?: number;
  timer: NodeJS.Timeout;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * An undici Pool to the engine service (keep-alive, `connections` sockets at most, the requests
 * beyond waiting in CallSlots). Every call has one deadline covering the wait for a socket,
 * connect, request, answer and body; past it the call is unavailable (a call alone on its socket
 * drops it). The engine is told the budget left when the call is sent, minus `marginMs` (header
 * x-engine-budget-ms, or the call's `budgetMs` in a batch), and commits nothing past it: a timeout
 * here almost always means "not committed" (the residual race is documented in
 * docs/engine-service.md).
 *
 * Batches: the POST calls made in one turn of the event loop (and those that arrive while every
 * socket is busy) travel together as one `POST /v1/commands` request, at most `maxBatch` calls
 * each, their answers coming back in order, each to its own caller: one request, one parse and one
 * hand-over to the engine's group commit for many calls instead of one each. A call keeps its own
 * deadline: when it passes, that caller is answered unavailable (timeout) as a call alone would be,
 * and the batch carries on for the others. A batch that gets no answer (refused, reset, timed out)
 * fails each of its calls as unavailable, as their own requests would have; nothing is retried
 * here (the engine-call policy retries the read-only calls, each on its own). A call inside a
 * sampled trace goes alone on its single-command endpoint, so its trace runs on into the engine
 * service as before; an engine service that answers 404 to `/v1/commands` (an older one) gets
 * every call alone from then on.
 */
export function createEngineTransport(options: EngineTransportOptions): EngineTransport {
  // Loaded here, on first use: a gateway with the embedded engine never loads undici (see pg in storage's database.ts).
  const { Pool } = createRequire(import.meta.url)('undici') as typeof Undici;
  const base = trimTrailingSlashes(options.url.pathname);
  const pool = new Pool(options.url.origin, {
    connections: options.connections,
    connectTimeout: options.timeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  const slots = new CallSlots(options.connections);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const batchHeaders = { ...headers, 'content-type': 'application/json' };
  let batching = options.maxBatch > 0;

  async function send(
    label: string,
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    deadline: number,
  ): Promise<{ status: number; text: string }> {
    const remaining = deadline - Date.now();
    const budget = Math.floor(remaining - options.marginMs);
    if (budget <= 0) throw engineUnavailable('timeout', `${label}: ${Math.max(0, remaining)} ms left, too little to send; not sent`);
    const sent = {
      ...headers,
      [ENGINE_BUDGET_HEADER]: String(budget),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    try {
      const answer = await pool.request({
        method,
        path: `${base}${path}`,
        headers: sent,
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(remaining),
      });
      return { status: answer.statusCode, text: await answer.body.text() };
    } catch (error) {
      const kind = isTimeout(error) ? 'timeout' : 'connection';
      throw engineUnavailable(
        kind,
        `${label}: ${kind === 'timeout' ? `no answer within ${remaining} ms (engine budget ${budget} ms)` : detail(error)}`,
        error,
      );
    }
  }

  async function callAlone<T>(method: 'GET' | 'POST', path: string, body: unknown, deadline: number): Promise<T> {
    const label = `${method} ${path}`;
    const release = await slots.acquire(deadline, label);
    try {
      const { status, text } = await send(label, method, path, body, deadline);
      return valueOf<T>(label, status, parseJson(text));
    } finally {
      release();
    }
  }

  // ---- batches ----
  const queue: Queued[] = [];
  let scheduled = false;
  let waitingForSlot = false;

  const settle = (call: Queued, outcome: { value: unknown } | { error: unknown }) => {
    if (call.settled) return;
    call.settled = true;
    clearTimeout(call.timer);
    if ('value' in outcome) call.resolve(outcome.value);
    else call.reject(outcome.error);
  };

  /** At the call's deadline: not sent yet, or sent and not answered in time; the batch goes on for the others. */
  const expire = (call: Queued) => {
    const index = queue.indexOf(call);
    if (index !== -1) queue.splice(index, 1);
    const message =
      call.budget === undefined
        ? `${call.label}: every connection to the engine stayed busy until the deadline; not sent`
        : `${call.label}: no answer within the deadline (engine budget ${call.budget} ms)`;
    settle(call, { error: engineUnavailable('timeout', message) });
  };

  /** Send what is queued while sockets are free; when none is, take the next one that frees up. */
  const flush = () => {
    scheduled = false;
    while (queue.length > 0) {
      const release = slots.tryAcquire();
      if (!release) {
        if (!waitingForSlot) {
          waitingForSlot = true;
          void slots.acquire(Number.POSITIVE_INFINITY, 'batch').then((granted) => {
            waitingForSlot = false;
            if (queue.length === 0) return granted();
            void sendBatch(queue.splice(0, options.maxBatch), granted);
            flush();
          });
        }
        return;
      }
      void sendBatch(queue.splice(0, options.maxBatch), release);
    }
  };

  async function sendBatch(calls: Queued[], release: () => void): Promise<void> {
    try {
      const now = Date.now();
      const wire: BatchCall[] = [];
      const sent: Queued[] = [];
      let last = now;
      for (const call of calls) {
        const budget = Math.floor(call.deadline - now - options.marginMs);
        if (budget <= 0) {
          const left = Math.max(0, call.deadline - now);
          settle(call, { error: engineUnavailable('timeout', `${call.label}: ${left} ms left, too little to send; not sent`) });
          continue;
        }
        call.budget = budget;
        wire.push({ op: call.op, budgetMs: budget, command: call.body });
        sent.push(call);
        last = Math.max(last, call.deadline);
      }
      if (sent.length === 0) return;
      // Alone, a call keeps its own endpoint: the same bytes as before batches, and no envelope to pay for.
      if (sent.length === 1) {
        const [call] = sent as [Queued];
        await send(call.label, 'POST', call.path, call.body, call.deadline).then(
          ({ status, text }) => answerOne(call, status, parseJson(text)),
          (error: unknown) => settle(call, { error }),
        );
        return;
      }
      let status: number;
      let json: unknown;
      try {
        const answer = await pool.request({
          method: 'POST',
          path: `${base}${BATCH_PATH}`,
          headers: batchHeaders,
          body: JSON.stringify({ calls: wire }),
          signal: AbortSignal.timeout(last - now),
        });
        status = answer.statusCode;
        json = parseJson(await answer.body.text());
      } catch (error) {
        const kind = isTimeout(error) ? 'timeout' : 'connection';
        for (const call of sent) {
          const why =
            kind === 'timeout' ? `no answer within the deadline (engine budget ${call.budget} ms, sent in a batch)` : detail(error);
          settle(call, { error: engineUnavailable(kind, `${call.label}: ${why}`, error) });
        }
        return;
      }
      if (status === 404) {
        // An engine service without batches: nothing was run; every call from now on goes alone.
        batching = false;
        for (const call of sent) {
          if (call.settled) continue;
          clearTimeout(call.timer);
          call.settled = true;
          callAlone('POST', call.path, call.body, call.deadline).then(call.resolve, call.reject);
        }
        return;
      }
      const results = (json as { results?: unknown } | undefined)?.results;
      if (status < 200 || status >= 300 || !Array.isArray(results) || results.length !== sent.length) {
        for (const call of sent) {
          const error =
            status >= 200 && status < 300
              ? engineUnavailable('bad_response', `${call.label}: the engine service answered the batch ${status} without its results`)
              : errorFromAnswer(call.label, status, json);
          settle(call, { error });
        }
        return;
      }
      sent.forEach((call, i) => {
        const result = results[i] as { status?: unknown; body?: unknown } | null;
        if (typeof result?.status === 'number' && Number.isInteger(result.status)) answerOne(call, result.status, result.body);
        else
          settle(call, {
            error: engineUnavailable('bad_response', `${call.label}: the engine service's batch answer has no status for it`),
          });
      });
    } catch (error) {
      // Nothing above is expected to throw; if it does, no caller is left waiting for its deadline.
      for (const call of calls) settle(call, { error: engineUnavailable('connection', `${call.label}: ${detail(error)}`, error) });
    } finally {
      release();
    }
  }

  const answerOne = (call: Queued, status: number, json: unknown) => {
    try {
      settle(call, { value: valueOf(call.label, status, json) });
    } catch (error) {
      settle(call, { error });
    }
  };

  function callBatched<T>(path: string, op: BatchOperation, body: unknown, deadline: number): Promise<T> {
    const label = `POST ${path}`;
    const remaining = deadline - Date.now();
    if (remaining - options.marginMs < 1) {
      return Promise.reject(engineUnavailable('timeout', `${label}: ${Math.max(0, remaining)} ms left, too little to send; not sent`));
    }
    return new Promise<T>((resolve, reject) => {
      const call: Queued = {
        label,
        path,
        op,
        body,
        deadline,
        settled: false,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => expire(call), remaining),
      };
      queue.push(call);
      if (!scheduled && !waitingForSlot) {
        scheduled = true;
        // After this turn's I/O callbacks: the calls their requests make travel together.
        setImmediate(flush);
      }
    });
  }

  function call<T>(method: 'GET' | 'POST', path: string, body: unknown, deadline: number): Promise<T> {
    const op = method === 'POST' && batching ? BATCHED.get(path) : undefined;
    // Inside a sampled trace the call goes alone: its traceparent reaches the engine service's span for it.
    if (op === undefined || traceIds() !== undefined) return callAlone<T>(method, path, body, deadline);
    return callBatched<T>(path, op, body, deadline);
  }

  return {
    call,
    async close() {
      for (const queued of queue.splice(0)) expire(queued);
      await pool.close();
    },
  };
}
