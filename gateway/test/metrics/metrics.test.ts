import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorBody } from '@loyalty-gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/start-gateway.js';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { sale, testSeedDocument } from '../../src/testing/test-seed.js';
import { freePort } from '@loyalty-gateway/storage/testing';

const ADMIN_TOKEN = 'metrics-admin-token-0123456789abcdef';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-metrics-'));
let gateway: RunningGateway;
let metricsPort = 0;

beforeAll(async () => {
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
  metricsPort = await freePort();
  gateway = await startGateway({
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_ENV: 'uat',
    GATEWAY_DATA_DIR: path.join(dir, 'data'),
    GATEWAY_SEED_FILE: seedFile,
    GATEWAY_MASTER_KEY: Buffer.alloc(32, 5).toString('base64'),
    GATEWAY_SCHEDULER: 'off',
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    GATEWAY_RATE_LIMIT: '5',
    GATEWAY_METRICS_PORT: String(metricsPort),
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    LOG_LEVEL: 'silent',
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string, headers = headersFor(body)) => fetch(`${gateway.address}/webhooks/generic`, { method: 'POST', headers, body });

/** The value of one sample line of the exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (want.every((pair) => inside.split(',').includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('Prometheus metrics (a real gateway: GET /metrics behind the admin token, GATEWAY_METRICS_PORT without)', () => {
  it('GET /metrics without the admin token is 401 in the spec Error body; a wrong token too', async () => {
    const none = await fetch(`${gateway.address}/metrics`);
    expect(none.status).toBe(401);
    expect(ErrorBody.parse(await none.json())).toMatchObject({ code: 'admin_unauthorized' });
    const wrong = await fetch(`${gateway.address}/metrics`, { headers: { authorization: 'Bearer not-the-token-but-long-enough' } });
    expect(wrong.status).toBe(401);
  });

  it('counts requests by route template, status and vendor; earn outcomes; engine calls; 429s; with process metrics', async () => {
    const firstSale = sale({ total: 3 });
    const first = JSON.stringify(firstSale);
    expect((await post(first)).status).toBe(200);
    expect((await post(first)).status).toBe(200); // duplicate, answered from the cache: no engine call
    // The same transaction id with another total: a conflict (duplicate, counted).
    const conflicting = JSON.stringify({ ...firstSale, transaction: { ...firstSale.transaction, total: 4 } });
    expect(((await (await post(conflicting)).json()) as { status: string }).status).toBe('duplicate');
    const unsigned = JSON.stringify(sale());
    expect((await post(unsigned, { ...headersFor(unsigned), 'x-service-signature': 'v1=AAAA' })).status).toBe(401);
    // The limit is 5 a minute for this connection: two more pass, the next is 429.
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(JSON.stringify(sale({ total: 1 })))).status);
    expect(statuses).toEqual([200, 200, 429]);

    const response = await fetch(`${gateway.address}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(sample(text, 'gateway_requests_total', { route: '/webhooks/generic', status: '200', vendor: 'acme-pos' })).toBe(5);
    expect(sample(text, 'gateway_requests_total', { route: '/webhooks/generic', status: '429', vendor: 'acme-pos' })).toBe(1);
    // A refused signature: labelled with the vendor its headers named (the connection resolves before the signature is checked).
    expect(sample(text, 'gateway_requests_total', { route: '/webhooks/generic', status: '401' })).toBe(1);
    expect(sample(text, 'gateway_earn_outcomes_total', { outcome: 'processed' })).toBe(3);
    expect(sample(text, 'gateway_earn_outcomes_total', { outcome: 'duplicate' })).toBe(1);
    expect(sample(text, 'gateway_earn_outcomes_total', { outcome: 'conflict' })).toBe(1);
    expect(sample(text, 'gateway_idempotency_conflicts_total', { vendor: 'acme-pos' })).toBe(1);
    expect(sample(text, 'gateway_engine_call_duration_seconds_count', { operation: 'earn' })).toBe(3);
    expect(sample(text, 'gateway_rate_limited_total', { vendor: 'acme-pos' })).toBe(1);
    expect(sample(text, 'gateway_request_duration_seconds_count', { route: '/webhooks/generic' })).toBe(7);
    expect(sample(text, 'gateway_engine_breaker_open')).toBe(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    // Bounded labels: never a raw URL; a store id only on the two gauges of the connections seen in the last hour.
    const storeLabelled = text.split('\n').filter((l) => l.includes('store-001') && !l.startsWith('#'));
    expect(storeLabelled.filter((l) => !/^gateway_(clock_skew_seconds|connection_requests_last_hour)\{/.test(l))).toEqual([]);
    // Each connection's last hour: all, refused (4xx), failed (5xx): its error rate.
    expect(storeLabelled.filter((l) => l.startsWith('gateway_connection_requests_last_hour'))).toEqual([
      'gateway_connection_requests_last_hour{vendor="acme-pos",store="store-001",result="all"} 7',
      'gateway_connection_requests_last_hour{vendor="acme-pos",store="store-001",result="refused"} 2',
      'gateway_connection_requests_last_hour{vendor="acme-pos",store="store-001",result="failed"} 0',
    ]);
  });

  it('GATEWAY_METRICS_PORT serves the same exposition without authentication on loopback', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(sample(text, 'gateway_earn_outcomes_total', { outcome: 'processed' })).toBeGreaterThanOrEqual(3);
  });

  it('clock skew: a till 150 s ahead is flagged in GET /admin/connections and exported as gateway_clock_skew_seconds{vendor,store}', async () => {
    // Smoothed: ten requests from the skewed till outweigh the earlier ones (rate-limited or not, each was authenticated).
    for (let i = 0; i < 10; i += 1) {
      const body = JSON.stringify(sale({ total: 1 }));
      const response = await fetch(`${gateway.address}/webhooks/generic`, {
        method: 'POST',
        headers: headersFor(body, { timestamp: Math.floor(Date.now() / 1000) + 150 }),
        body,
      });
      expect([200, 429]).toContain(response.status);
    }
    const admin = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
    const { connections } = (await (await fetch(`${gateway.address}/admin/connections?vendor=acme-pos`, admin)).json()) as {
      connections: Array<{ storeId: string; clockSkew: { smoothedSeconds: number; flagged: boolean } | null }>;
    };
    const skewed = connections.find((c) => c.storeId === 'store-001')!;
    expect(skewed.clockSkew?.flagged).toBe(true);
    expect(skewed.clockSkew!.smoothedSeconds).toBeGreaterThan(120);
    const text = await (await fetch(`${gateway.address}/metrics`, admin)).text();
    expect(sample(text, 'gateway_clock_skew_seconds', { vendor: 'acme-pos', store: 'store-001' })).toBeGreaterThan(120);
  });
});
