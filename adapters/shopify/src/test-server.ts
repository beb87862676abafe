import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the recorded Shopify server. */
export interface RecordedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** What the server saw of each request. */
export interface SeenRequest {
  at: number;
  method: string;
  path: string;
  accessToken: string | undefined;
  body: { query?: string; variables?: Record<string, unknown> };
}

export interface RecordedShopify {
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A real HTTP server (node:http on an ephemeral port) that answers Shopify Admin API calls with
 * recorded responses, in order; once the script is spent it answers 500. Tests use it instead of
 * mocking fetch or the HTTP client.
 */
export async function startRecordedShopify(script: RecordedAnswer[], apiVersion = '2025-07'): Promise<RecordedShopify> {
  const queue = [...script];
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const token = request.headers['x-shopify-access-token'];
      seen.push({ at: Date.now(),
        method: request.method ?? '',
        path: request.url ?? '',
        accessToken: Array.isArray(token) ? token[0] : token,
        body: text ? (JSON.parse(text) as SeenRequest['body']) : {},
      });
      const answer = queue.shift() ?? { status: 500, body: '{"errors":"script exhausted"}' };
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/admin/api/${apiVersion}`,
    seen,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
