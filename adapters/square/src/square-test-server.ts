import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded answer: status (200 by default), headers, JSON body. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface SeenRequest {
  method: string;
  /** Path and query exactly as received, e.g. `/v2/catalog/list?types=ITEM&cursor=abc`. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface SquareTestServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for connect.squareup.com in tests: each route (path + query as
 * sent) answers its replies in order and repeats the last; anything else is Square's 404 body.
 */
export async function startSquareServer(routes: Record<string, Reply[]>): Promise<SquareTestServer> {
  const seen: SeenRequest[] = [];
  const served = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    seen.push({ method: req.method ?? 'GET', url, headers: req.headers });
    const replies = routes[url];
    const n = served.get(url) ?? 0;
    served.set(url, n + 1);
    const reply: Reply = replies?.[Math.min(n, replies.length - 1)] ?? {
      status: 404,
      body: { errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail: `no route for ${url}` }] },
    };
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
