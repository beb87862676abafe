import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A real node:http server playing Clover's `GET /v3/merchants/{mId}/items?offset=N` with
 * recorded-shape pages: `count` items, 100 a page. `script(offset, ...answers)` queues answers
 * (a 429 with Retry-After, a 503) served before the page itself.
 */
export interface CloverItemsServer {
  baseUrl: string;
  /** Offsets asked, in order (retries included). */
  asked: number[];
  authorizations: string[];
  setItemCount(count: number): void;
  script(offset: number, ...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export const cloverItem = (n: number) => ({
  id: `ITEM${String(n).padStart(9, '0')}`,
  hidden: n % 10 === 9,
  name: `Item ${n}`,
  price: 100 + n,
  priceType: 'FIXED',
  ...(n % 3 === 0 ? { code: `SKU-${n}` } : {}),
});

export async function startCloverItemsServer(merchantId: string, count: number): Promise<CloverItemsServer> {
  let itemCount = count;
  const queues = new Map<number, ScriptedAnswer[]>();
  const asked: number[] = [];
  const authorizations: string[] = [];
  const path = `/v3/merchants/${merchantId}/items`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://recorded.local');
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const limit = Number(url.searchParams.get('limit') ?? '100');
    if (url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      return;
    }
    asked.push(offset);
    authorizations.push(String(req.headers.authorization));
    const scripted = queues.get(offset)?.shift();
    const answer = scripted ?? {
      status: 200,
      body: { elements: Array.from({ length: Math.max(0, Math.min(limit, itemCount - offset)) }, (_, i) => cloverItem(offset + i)) },
    };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    authorizations,
    setItemCount: (n) => void (itemCount = n),
    script: (offset, ...answers) => void queues.set(offset, [...(queues.get(offset) ?? []), ...answers]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
