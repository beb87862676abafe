import { Pool } from 'undici';
import { engineUnavailable, errorFromAnswer } from './engine-call-failure.js';

export interface EngineTransportOptions {
  url: URL;
  token: string | undefined;
  timeoutMs: number;
  connections: number;
}

/** One JSON call to the engine service; throws only EngineError / EngineUnavailableError. */
export interface EngineTransport {
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

const isTimeout = (error: unknown): boolean => {
  const e = error as { name?: string; code?: string } | null;
  return e?.name === 'TimeoutError' || e?.code === 'UND_ERR_CONNECT_TIMEOUT' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT';
};

const detail = (error: unknown): string => {
  const e = error as { code?: string; message?: string } | null;
  return [e?.code, e?.message].filter(Boolean).join(' ') || String(error);
};

/**
 * An undici Pool to the engine service (keep-alive, `connections` sockets at most). Every call has
 * one deadline of `timeoutMs` covering connect, request, answer and body; past it the socket is
 * dropped and the call is unavailable.
 */
export function createEngineTransport(options: EngineTransportOptions): EngineTransport {
  const base = options.url.pathname.replace(/\/+$/, '');
  const pool = new Pool(options.url.origin, {
    connections: options.connections,
    connectTimeout: options.timeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const label = `${method} ${path}`;
    let status: number;
    let text: string;
    try {
      const answer = await pool.request({
        method,
        path: `${base}${path}`,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const kind = isTimeout(error) ? 'timeout' : 'connection';
      throw engineUnavailable(kind, `${label}: ${kind === 'timeout' ? `no answer within ${options.timeoutMs} ms` : detail(error)}`, error);
    }
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

  return { call, close: () => pool.close() };
}
