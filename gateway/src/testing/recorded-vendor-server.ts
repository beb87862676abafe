import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordedVendorServer {
  baseUrl: string;
  /** Path (no query) of every request received, with its headers. */
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
  /** The answer for a path from now on. */
  route(path: string, reply: RecordedReply): void;
  /** Answers served once each, in order, before the path's route (a 503 page, a 429). */
  script(path: string, ...replies: RecordedReply[]): void;
  close(): Promise<void>;
}

/**
 * A real node:http server on 127.0.0.1:0 playing a vendor's REST API from recorded responses
 * (the adapters' fixtures). Unknown paths answer 404. Never a mock of the HTTP client.
 */
export async function startRecordedVendorServer(): Promise<RecordedVendorServer> {
  const routes = new Map<string, RecordedReply>();
  const queues = new Map<string, RecordedReply[]>();
  const seen: RecordedVendorServer['seen'] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://recorded.local').pathname;
    seen.push({ path, headers: req.headers });
    const reply = queues.get(path)?.shift() ?? routes.get(path) ?? { status: 404, body: { message: 'Not Found' } };
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    route: (path, reply) => void routes.set(path, reply),
    script: (path, ...replies) => void queues.set(path, [...(queues.get(path) ?? []), ...replies]),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
