import { trimTrailingSlashes } from '@loyalty-gateway/core';
import { ENGINE_BUDGET_HEADER } from '@loyalty-gateway/engine';
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

/** Parse a JSON answer; a 2xx without a JSON body is unavailable (a proxy's page, a truncated body). */
function parseAnswer<T>(label: string, status: number, text: string): T {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) {
    if (json === undefined) throw engineUnavailable('bad_response', `${label}: the engine service answered ${status} without a JSON body`);
    return json as T;
  }
  throw errorFromAnswer(label, status, json);
}

/**
 * An undici Pool to the engine service (keep-alive, `connections` sockets at most, the calls
 * beyond waiting in CallSlots). Every call has one deadline covering the wait for a socket,
 * connect, request, answer and body; past it the socket is dropped and the call is unavailable.
 * The engine is told the budget left when the call is sent, minus `marginMs` (header
 * x-engine-budget-ms), and commits nothing past it: a timeout here almost always means "not
 * committed" (the residual race is documented in docs/engine-service.md).
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

  async function call<T>(method: 'GET' | 'POST', path: string, body: unknown, deadline: number): Promise<T> {
    const label = `${method} ${path}`;
    const release = await slots.acquire(deadline, label);
    try {
      const { status, text } = await send(label, method, path, body, deadline);
      return parseAnswer<T>(label, status, text);
    } finally {
      release();
    }
  }

  return { call, close: () => pool.close() };
}
