import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, postgresUrlWithSchema, runPostgresStatement } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type ReceivedSpan as Span } from '../../src/testing/otlp-receiver.js';
import { headersFor } from '../../src/testing/gateway-fixture.js';
import { exited, spawnGateway, stopGateway, type SpawnedGateway } from '../../src/testing/spawn-gateway.js';
import { SECRET, VENDOR, sale, testSeedDocument } from '../../src/testing/test-seed.js';

/**
 * One earn through a remote engine on PostgreSQL + Redis is one trace: the gateway's and the
 * engine service's spans, exported by each process's OTLP/HTTP exporter to a receiver in this
 * test (an HTTP server decoding the OTLP JSON it is sent), parented as the request ran.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-trace-'));
const schema = `trace_${randomBytes(5).toString('hex')}`;
const ADMIN_TOKEN = 'trace-test-admin-token-0123456789';
const ENGINE_TOKEN = 'trace-test-engine-token-0123456789';

/** The engine service as `npm run engine` (or, after the production build, `npm run engine:prod`) runs it. */
async function spawnEngine(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; url: string; output(): string }> {
  const compiled = process.env.GATEWAY_TEST_COMPILED === '1' && existsSync(path.join(root, 'engine/dist/main.js'));
  const args = compiled ? ['--enable-source-maps', 'engine/dist/main.js'] : ['--import', 'tsx', 'engine/src/main.ts'];
  const port = await freePort();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ENGINE_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Server listening at/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`engine exited with ${code}:\n${out}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => out };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('tracing: one earn through a remote engine on PostgreSQL and Redis', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let engine: Awaited<ReturnType<typeof spawnEngine>> | undefined;
  let gateway: SpawnedGateway | undefined;
  const otel = (service: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: service,
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
    // Exported within 0.2 s instead of 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    await runPostgresStatement(DATABASE_URL!, `create schema "${schema}"`);
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeedDocument()));
    const database = postgresUrlWithSchema(DATABASE_URL!, schema);
    engine = await spawnEngine({
      PATH: process.env.PATH,
      ENGINE_HOST: '127.0.0.1',
      ENGINE_TOKEN,
      ENGINE_SEED_FILE: seedFile,
      DATABASE_URL: database,
      LOG_LEVEL: 'info',
      ...otel('loyalty-engine'),
    });
    gateway = await spawnGateway({
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_ENV: 'uat',
      GATEWAY_DATA_DIR: path.join(dir, 'data'),
      GATEWAY_SEED_FILE: seedFile,
      GATEWAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEWAY_SCHEDULER: 'off',
      DATABASE_URL: database,
      REDIS_URL,
      LOYALTY_ENGINE_URL: engine.url,
      LOYALTY_ENGINE_TOKEN: ENGINE_TOKEN,
      LOG_LEVEL: 'info',
      ...otel('loyalty-gateway'),
    });
  }, 90_000);

  afterAll(async () => {
    if (gateway) await stopGateway(gateway);
    if (engine) {
      engine.child.kill('SIGTERM');
      await exited(engine.child);
    }
    receiver?.server.close();
    await runPostgresStatement(DATABASE_URL!, `drop schema if exists "${schema}" cascade`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one trace, parented as it ran: route, auth, validation, cache, engine (continued by the engine service), statements, journal', async () => {
    const body = JSON.stringify(sale({ total: 30 }));
    // A query string is never exported (a vendor may put a token in the URL it was given).
    const response = await fetch(`${gateway!.url}/webhooks/generic?token=not-for-traces`, {
      method: 'POST',
      headers: headersFor(body),
      body,
    });
    expect(await response.json()).toMatchObject({ status: 'processed', pointsEarned: 30 });
    const requestId = response.headers.get('x-request-id')!;

    // The root span: the route, the request id, who it was for and how it ended.
    const rootOf = () =>
      receiver.spans.find((s) => s.service === 'loyalty-gateway' && s.attributes['loyalty.request_id'] === requestId && !s.parentSpanId);
    const rootSpan = await until('the root span', rootOf);
    expect(rootSpan).toMatchObject({
      name: 'POST /webhooks/generic',
      kind: 2, // SERVER
      attributes: expect.objectContaining({
        'http.route': '/webhooks/generic',
        'http.response.status_code': 200,
        'loyalty.vendor': VENDOR,
        'loyalty.event_type': 'sale.completed',
        'loyalty.outcome': 'processed',
      }),
    });
    expect(rootSpan.attributes['loyalty.connection_id']).toEqual(expect.any(String));
    const traceId = rootSpan.traceId;
    const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
    const named = (service: string, name: string | RegExp) =>
      inTrace().find((s) => s.service === service && (typeof name === 'string' ? s.name === name : name.test(s.name)));

    // Everything arrives within a few export intervals; the journal's span comes after the answer.
    await until('the engine service statements and the journal span', () =>
      named('loyalty-engine', /^pg\.query/) && named('loyalty-gateway', 'journal record') ? true : undefined,
    );
    const spans = inTrace();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (span: Span | undefined) => (span?.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const ancestry = (span: Span | undefined): string[] => {
      const names: string[] = [];
      for (let at = parentOf(span); at; at = parentOf(at)) names.push(at.name);
      return names;
    };
    // Every span's parent arrived too: one tree, rooted at the route span.
    for (const span of spans) if (span !== rootSpan) expect(byId.has(span.parentSpanId!), `${span.service} ${span.name}`).toBe(true);

    const gatewaySpan = (name: string | RegExp) => named('loyalty-gateway', name);
    // The connection's lookup on a cold cache: the gateway's own statement, under authentication.
    expect(spans.filter((s) => s.service === 'loyalty-gateway' && /^pg\.query/.test(s.name)).map((s) => parentOf(s)?.name)).toContain(
      'auth connection',
    );
    const handler = gatewaySpan('handler /webhooks/generic')!;
    expect(parentOf(handler)).toBe(rootSpan);
    expect(parentOf(gatewaySpan('auth connection'))).toBe(rootSpan);
    expect(parentOf(gatewaySpan('auth signature'))).toBe(rootSpan);
    expect(parentOf(gatewaySpan('validate envelope'))).toBe(handler);
    expect(gatewaySpan('validate envelope')!.attributes['loyalty.event_type']).toBe('sale.completed');
    const cacheRead = gatewaySpan('idempotency get')!;
    expect(parentOf(cacheRead)).toBe(handler);
    expect(cacheRead.attributes['loyalty.cache.hit']).toBe(false);
    const redis = spans.filter((s) => s.scope.includes('ioredis'));
    expect(redis.length).toBeGreaterThan(0);
    // Redis commands under the cache's spans (ioredis), by command name only; the rate limit's run in the route's hooks.
    for (const command of redis) expect(['idempotency get', 'idempotency set', rootSpan.name]).toContain(parentOf(command)?.name);
    expect(redis.filter((s) => parentOf(s)?.name === 'idempotency get').map((s) => s.attributes['db.query.text'])).toEqual(['mget']);
    const engineCall = gatewaySpan('engine earn')!;
    expect(parentOf(engineCall)).toBe(handler);
    expect(engineCall.attributes['loyalty.outcome']).toBe('processed');
    // The HTTP call to the engine service (undici), and the service continuing the trace from its traceparent.
    const httpCall = spans.find((s) => s.scope.includes('undici') && parentOf(s) === engineCall)!;
    expect(httpCall).toMatchObject({ kind: 3 }); // CLIENT
    const served = spans.find((s) => s.service === 'loyalty-engine' && parentOf(s) === httpCall)!;
    expect(served).toMatchObject({ name: 'POST /v1/earn', kind: 2 });
    // The engine's statements, inside its request.
    const statements = spans.filter((s) => s.service === 'loyalty-engine' && s.scope.includes('pg') && /^pg\.query/.test(s.name));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(ancestry(statement)).toContain('POST /v1/earn');
    // The journal hand-off, a span of the request's own.
    expect(parentOf(gatewaySpan('journal record'))).toBe(rootSpan);

    // Never a secret, a body or a customer's contact details in what was exported.
    const exported = JSON.stringify(spans);
    for (const secret of [SECRET, ENGINE_TOKEN, ADMIN_TOKEN, '+15550100001', 'ann@example.com', body, 'not-for-traces'])
      expect(exported).not.toContain(secret);
    expect(rootSpan.attributes['url.path']).toBe('/webhooks/generic');
    expect(receiver.contentTypes).toEqual(new Set(['POST /v1/traces application/json']));

    // Both ways between the request and its trace: the journal entry names the trace; the log line too.
    const entry = await (async () => {
      for (let i = 0; i < 50; i++) {
        const list = (await (
          await fetch(`${gateway!.url}/admin/deliveries?requestId=${encodeURIComponent(requestId)}`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).json()) as { deliveries: Array<{ requestId: string; traceId: string | null }> };
        if (list.deliveries.length > 0) return list.deliveries[0]!;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('no journal entry');
    })();
    expect(entry.traceId).toBe(traceId);
    const line = gateway!
      .output()
      .split('\n')
      .find((l) => l.includes(`"reqId":"${requestId}"`) && l.includes('request completed'));
    expect(JSON.parse(line!)).toMatchObject({ trace_id: traceId, span_id: rootSpan.spanId });
  }, 60_000);
});
