import { createServer, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VendorApiError, createHttpClient, fetchFailureReason, parseRetryAfter } from './http-client.js';

// A real server whose answers are scripted per path: each request takes the next status.
const scripts: Record<string, Array<{ status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }>> = {};
const hits: Record<string, number> = {};
const received: Record<string, IncomingHttpHeaders> = {};
const server = createServer((req, res) => {
  const key = new URL(req.url ?? '/', 'http://x').pathname;
  hits[key] = (hits[key] ?? 0) + 1;
  received[key] = { ...req.headers, 'x-seen-url': req.url };
  if (key === '/gzipped') {
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      .end(gzipSync(JSON.stringify({ items: [1, 2, 3] })));
    return;
  }
  const next = scripts[key]?.shift() ?? { status: 404, body: { error: 'none' } };
  setTimeout(() => {
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(JSON.stringify(next.body ?? {}));
  }, next.delayMs ?? 0);
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('createHttpClient', () => {
  it('request() answers the status, the headers and the parsed body (paging headers such as X-WP-TotalPages)', async () => {
    scripts['/paged'] = [{ status: 200, body: [{ id: 1 }], headers: { 'x-wp-totalpages': '3', link: '<https://x/next>; rel="next"' } }];
    const answer = await createHttpClient().request<Array<{ id: number }>>(`${base}/paged`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('X-WP-TotalPages')).toBe('3');
    expect(answer.headers.get('link')).toContain('rel="next"');
    expect(answer.body).toEqual([{ id: 1 }]);
  });

  it('asks for compressed answers and reads a gzip one; sends JSON bodies as JSON, the query in the path', async () => {
    await expect(createHttpClient().json(`${base}/gzipped`, { method: 'POST', body: { q: 1 }, query: { page: 2 } })).resolves.toEqual({
      items: [1, 2, 3],
    });
    expect(received['/gzipped']).toMatchObject({
      'accept-encoding': 'gzip, deflate',
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'undici',
      'x-seen-url': '/gzipped?page=2',
    });
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    scripts['/rate'] = [
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 200, body: { ok: 1 } },
    ];
    const waits: number[] = [];
    const client = createHttpClient({
      realWaitMs: (ms) => {
        waits.push(ms);
        return 0;
      },
    });
    await expect(client.json(`${base}/rate`)).resolves.toEqual({ ok: 1 });
    expect(waits).toEqual([2000]);
  });

  it('retries 5xx with backoff and gives up after maxAttempts with a typed error', async () => {
    scripts['/down'] = [{ status: 503 }, { status: 502 }, { status: 500 }];
    const waits: number[] = [];
    const client = createHttpClient({
      maxAttempts: 3,
      baseDelayMs: 10,
      realWaitMs: (ms) => {
        waits.push(ms);
        return 0;
      },
    });
    const error = await client.json(`${base}/down`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorApiError);
    expect((error as VendorApiError).status).toBe(500);
    expect((error as VendorApiError).retryable).toBe(true);
    expect(waits).toEqual([10, 20]);
  });

  it('does not retry a 404, and passes query parameters', async () => {
    scripts['/missing'] = [{ status: 404 }];
    const error = (await createHttpClient()
      .json(`${base}/missing`, { query: { limit: 5 } })
      .catch((e: unknown) => e)) as VendorApiError;
    expect(error.status).toBe(404);
    expect(error.retryable).toBe(false);
    expect(hits['/missing']).toBe(1);
  });

  it('times out a slow answer', async () => {
    scripts['/slow'] = [{ status: 200, delayMs: 500 }];
    const error = (await createHttpClient({ timeoutMs: 50, maxAttempts: 1 })
      .json(`${base}/slow`)
      .catch((e: unknown) => e)) as VendorApiError;
    expect(error.status).toBe(0);
  });

  it('a Retry-After longer than maxDelayMs is not retried early: thrown at once, carrying the wait', async () => {
    scripts['/later'] = [
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 200, body: { ok: 1 } },
    ];
    const waits: number[] = [];
    const client = createHttpClient({
      maxDelayMs: 30_000,
      realWaitMs: (ms) => {
        waits.push(ms);
        return 0;
      },
    });
    const error = (await client.json(`${base}/later`).catch((e: unknown) => e)) as VendorApiError;
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(waits).toEqual([]);
    expect(hits['/later']).toBe(1);
  });

  it('with a deadline, a Retry-After that ends past it is not waited for', async () => {
    scripts['/deadline-429'] = [
      { status: 429, headers: { 'retry-after': '20' } },
      { status: 200, body: { ok: 1 } },
    ];
    const started = Date.now();
    const client = createHttpClient({ deadline: started + 1_000, maxAttempts: 2 });
    const error = (await client.json(`${base}/deadline-429`).catch((e: unknown) => e)) as VendorApiError;
    expect(error).toMatchObject({ status: 429, retryAfterMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(500);
    expect(hits['/deadline-429']).toBe(1);
  });

  it('with a deadline, a slow answer is cut at the deadline (not at the attempt timeout) and nothing starts after it', async () => {
    scripts['/deadline-slow'] = [
      { status: 200, delayMs: 3_000 },
      { status: 200, delayMs: 3_000 },
    ];
    const started = Date.now();
    const client = createHttpClient({ deadline: started + 300, timeoutMs: 10_000, maxAttempts: 2, baseDelayMs: 1 });
    const error = (await client.json(`${base}/deadline-slow`).catch((e: unknown) => e)) as VendorApiError;
    expect(error).toBeInstanceOf(VendorApiError);
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hits['/deadline-slow']).toBe(1);
  });

  it('within the deadline, a short Retry-After is still honoured', async () => {
    scripts['/deadline-ok'] = [
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200, body: { ok: 2 } },
    ];
    const client = createHttpClient({ deadline: Date.now() + 2_000, maxAttempts: 2 });
    await expect(client.json(`${base}/deadline-ok`)).resolves.toEqual({ ok: 2 });
  });

  it('failureIn: a 2xx the adapter reads as a retryable failure is retried within the same budget, its wait honoured', async () => {
    scripts['/graphql'] = [
      { status: 200, body: { errors: ['THROTTLED'] } },
      { status: 503 },
      { status: 200, body: { errors: ['THROTTLED'] } },
      { status: 200, body: { data: 1 } },
    ];
    const waits: number[] = [];
    const client = createHttpClient({
      baseDelayMs: 10,
      realWaitMs: (ms) => {
        waits.push(ms);
        return 0;
      },
    });
    const failureIn = (body: unknown) =>
      (body as { errors?: unknown }).errors ? new VendorApiError(429, `${base}/graphql`, 'throttled', 70) : null;
    const error = (await client.json(`${base}/graphql`, { failureIn }).catch((e: unknown) => e)) as VendorApiError;
    expect(error).toMatchObject({ status: 429, message: 'throttled', retryAfterMs: 70, attempts: 3 });
    expect(waits).toEqual([70, 20]);
    expect(hits['/graphql']).toBe(3);
    await expect(client.json(`${base}/graphql`, { failureIn })).resolves.toEqual({ data: 1 });
  });

  it("a vendor API that cannot be reached is a retryable status-0 error saying so without the port's state (the system's reason is its cause, for the logs)", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await createHttpClient({ maxAttempts: 1 })
      .request(`http://127.0.0.1:${port}/orders`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorApiError);
    expect(error).toMatchObject({ status: 0, retryable: true, message: `could not connect to 127.0.0.1:${port}` });
    expect(fetchFailureReason((error as VendorApiError).cause)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('redirects', () => {
  it('a 3xx from a vendor API is never followed: a non-retryable error naming the target, and the other host receives nothing (no token leaks)', async () => {
    const elsewhere: Array<Record<string, string | string[] | undefined>> = [];
    const other = createServer((req, res) => {
      elsewhere.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}/collect`;
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        scripts['/moved'] = [{ status, headers: { location: target } }];
        const error = await createHttpClient({ maxAttempts: 3, baseDelayMs: 1 })
          .json(`${base}/moved`, { headers: { 'x-shopify-access-token': 'shpat_secret' } })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(VendorApiError);
        expect((error as VendorApiError).status).toBe(status);
        expect((error as VendorApiError).retryable).toBe(false);
        expect((error as VendorApiError).message).toContain(`redirect to 127.0.0.1:${(other.address() as AddressInfo).port} not followed`);
      }
      expect(elsewhere).toEqual([]);
      expect(hits['/moved']).toBe(5); // one attempt each: a redirect is not retried either
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});
