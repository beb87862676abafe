import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. */
export interface Recorded {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/**
 * A real node:http server playing Clover's REST API from recorded responses (never a mock of the
 * HTTP client). Routes are keyed by path, or `path?offset=N` when the request pages by offset.
 * `script(key, ...answers)` queues answers (a 429, a 503...) served before the route's own one.
 */
export interface RecordedServer {
  baseUrl: string;
  requests: SeenRequest[];
  route(key: string, answer: Recorded): void;
  script(key: string, ...answers: Recorded[]): void;
  close(): Promise<void>;
}

const keyOf = (url: URL): string => {
  const offset = url.searchParams.get('offset');
  return offset === null ? url.pathname : `${url.pathname}?offset=${offset}`;
};

export async function startRecordedServer(): Promise<RecordedServer> {
  const routes = new Map<string, Recorded>();
  const queues = new Map<string, Recorded[]>();
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://recorded.local');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers });
    const key = keyOf(url);
    const answer = queues.get(key)?.shift() ?? routes.get(key) ?? { status: 404, body: { message: 'Not Found' } };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route: (key, answer) => void routes.set(key, answer),
    script: (key, ...answers) => void queues.set(key, [...(queues.get(key) ?? []), ...answers]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
