import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded answer: status (200 by default), headers, body (JSON-encoded unless a string), an optional delay. */
export interface RecordedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Answer this late (a slow vendor); the server still closes promptly. */
  delayMs?: number;
}

export interface SeenRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The request body as text ('' when none). */
  body: string;
  /** When it arrived (epoch ms). */
  at: number;
}

export interface RecordedVendorServerOptions {
  /** Which route a request takes: its path by default (e.g. `path?offset=N` for offset paging, or one key for all). */
  key?: (request: { method: string; url: URL }) => string;
  /** The answer for a key with no route (the vendor's own 404 page). */
  notFound?: RecordedReply;
  /** Routes to start with: one reply, or replies served in order with the last one repeating. */
  routes?: Record<string, RecordedReply | RecordedReply[]>;
  /**
   * A vendor that keeps state (subscriptions created, then listed back): the answer to a request
   * with no scripted reply is computed from it. Takes precedence over routes, not over scripts.
   */
  respond?: (request: SeenRequest) => RecordedReply | undefined;
}

export interface RecordedVendorServer {
  baseUrl: string;
  /** Every request received, in order. */
  seen: SeenRequest[];
  /** The answer for a key from now on. */
  route(key: string, reply: RecordedReply): void;
  /** Answers served once each, in order, before the key's route (a 429 with Retry-After, a 503 page). */
  script(key: string, ...replies: RecordedReply[]): void;
  /** Requests seen for a key. */
  hits(key: string): number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const DEFAULT_NOT_FOUND: RecordedReply = { status: 404, body: { message: 'Not Found' } };

/**
 * A real node:http server on 127.0.0.1:0 playing a vendor's REST API from recorded responses
 * (an adapter's fixtures), for fetch-back and catalog tests: never a mock of the HTTP client.
 * Shared by every adapter's tests and the gateway's end-to-end tests.
 */
export async function startRecordedVendorServer(options: RecordedVendorServerOptions = {}): Promise<RecordedVendorServer> {
  const keyOf = options.key ?? (({ url }) => url.pathname);
  const routes = new Map<string, RecordedReply>();
  const queues = new Map<string, RecordedReply[]>();
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://recorded.local');
      const method = req.method ?? 'GET';
      seen.push({ method, path: url.pathname, query: url.searchParams, url: req.url ?? '/', headers: req.headers, body, at: Date.now() });
      const key = keyOf({ method, url });
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const reply = queues.get(key)?.shift() ?? options.respond?.(seen.at(-1)!) ?? routes.get(key) ?? options.notFound ?? DEFAULT_NOT_FOUND;
      const send = () => {
        const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(text);
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  for (const [key, replies] of Object.entries(options.routes ?? {})) {
    const list = Array.isArray(replies) ? replies : [replies];
    const last = list.at(-1);
    if (last) routes.set(key, last);
    if (list.length > 1) queues.set(key, list.slice(0, -1));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    route: (key, reply) => void routes.set(key, reply),
    script: (key, ...replies) => void queues.set(key, [...(queues.get(key) ?? []), ...replies]),
    hits: (key) => counts.get(key) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
