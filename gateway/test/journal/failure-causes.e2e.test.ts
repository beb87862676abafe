import { createServer, type Server, type Socket } from 'node:net';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { startRecordedVendorServer, type RecordedVendorServer } from '@loyalty-gateway/core/testing';
import { freePort, testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { createHttpEngine } from '../../src/engine-client/index.js';
import { featuredSeedDocument, SQUARE_NOTIFICATION_URL, SQUARE_SIGNATURE_KEY } from '../../src/testing/featured-seed.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { adapterFixture, vendorSignature } from '../../src/testing/native-fixtures.js';
import { sale } from '../../src/testing/test-seed.js';

type Shown = {
  delivery: Record<string, any> & { failure: { call: string; what: string; ms: number | null } | null };
  story: Array<{ step: string; outcome: string }>;
};

const SQUARE_ORDER = '/v2/orders/03O3USaPaAaFnI6kkwB1JxGgBsUZY';
const payment = adapterFixture('square', 'payment-updated-completed.json');
const squareHeaders = () => ({
  'content-type': 'application/json',
  ...vendorSignature(square.defaultAuth, SQUARE_SIGNATURE_KEY, SQUARE_NOTIFICATION_URL, payment),
});

/** A TCP server that accepts connections and never answers: a hung engine service. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(testDialects())('every failure on our side says why, in the journal ($name)', ({ name }) => {
  let t: OperatorApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const shown = async (app: OperatorApp, requestId: string): Promise<Shown> => {
    await app.journal!.flush();
    return (await app.admin('GET', `/admin/deliveries/${requestId}`)).json() as Shown;
  };
  const causeStep = (story: Shown['story']) => story.find((s) => s.step === 'cause')?.outcome;

  it('the engine down on the generic door (500): the engine operation, what happened and how long, on the entry and in its story', async () => {
    const fault = { down: true };
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
    const raw = bodyOf(sale({ id: 'F-500' }));
    const failed = await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    expect(failed.statusCode).toBe(500);
    const { delivery, story } = await shown(t, failed.headers['x-request-id'] as string);
    expect(delivery.failure).toEqual({ call: 'engine earn', what: 'unavailable: engine unreachable (test fault)', ms: expect.any(Number) });
    expect(causeStep(story)).toMatch(/^engine earn: unavailable: engine unreachable \(test fault\); took \d+ ms$/);
    // A replay that fails again says why too.
    await t.admin('POST', `/admin/deliveries/${delivery.id as string}/replay`);
    await t.journal!.flush();
    const [replay] = (await t.admin('GET', `/admin/deliveries/${delivery.id as string}`)).json().replays as Array<Record<string, any>>;
    expect(replay).toMatchObject({ status: 500, failure: { call: 'engine earn', what: 'unavailable: engine unreachable (test fault)' } });
  });

  it("a featured vendor's provider settings that no longer fit its adapter (500): which settings, what is wrong with them, never their values", async () => {
    t = await openOperatorApp({ dialect: name, journal: true });
    await t.store.setVendorSettings('shopify', { appSecret: 42, apiBaseUrl: 'https://secret-host.example/admin' } as never);
    const failed = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shopify',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(failed.statusCode).toBe(500);
    const { delivery } = await shown(t, failed.headers['x-request-id'] as string);
    expect(delivery.failure).toEqual({ call: 'shopify provider settings', what: expect.stringMatching(/^invalid: appSecret: /), ms: null });
    expect(JSON.stringify(delivery.failure)).not.toContain('secret-host');
  });

  describe('a featured door whose fetch-back fails (503)', () => {
    let api: RecordedVendorServer;
    beforeAll(async () => {
      api = await startRecordedVendorServer();
    });
    afterAll(() => api.close());

    it("the vendor API's answer: its host and path template (no id, no query), the status and the attempts, how long", async () => {
      t = await openOperatorApp({ dialect: name, journal: true, seedDocument: featuredSeedDocument({ squareApi: api.baseUrl }) });
      api.route(SQUARE_ORDER, { status: 503, body: { errors: [{ code: 'SERVICE_UNAVAILABLE' }] } });
      const failed = await t.app.inject({ method: 'POST', url: '/webhooks/square', payload: payment, headers: squareHeaders() });
      expect(failed.statusCode).toBe(503);
      const { delivery, story } = await shown(t, failed.headers['x-request-id'] as string);
      const host = new URL(api.baseUrl).host;
      expect(delivery.failure).toEqual({
        call: `vendor API ${host}/v2/orders/{id}`,
        what: 'HTTP 503 after 2 attempts',
        ms: expect.any(Number),
      });
      expect(causeStep(story)).toBe(`vendor API ${host}/v2/orders/{id}: HTTP 503 after 2 attempts; took ${delivery.failure!.ms} ms`);
      expect(JSON.stringify(delivery)).not.toContain('03O3USaPaAaFnI6kkwB1JxGgBsUZY');
    });

    it('a vendor API that refuses the connection: no HTTP answer, said as for every call that got none', async () => {
      const closed = await freePort();
      t = await openOperatorApp({
        dialect: name,
        journal: true,
        seedDocument: featuredSeedDocument({ squareApi: `http://127.0.0.1:${closed}` }),
      });
      const failed = await t.app.inject({ method: 'POST', url: '/webhooks/square', payload: payment, headers: squareHeaders() });
      expect(failed.statusCode).toBe(503);
      const { delivery } = await shown(t, failed.headers['x-request-id'] as string);
      expect(delivery.failure).toEqual({
        call: `vendor API 127.0.0.1:${closed}/v2/orders/{id}`,
        what: expect.stringMatching(/^no HTTP answer \(could not connect\)/),
        ms: expect.any(Number),
      });
    });
  });

  describe('a checkout call answered 502 by a remote engine', () => {
    it('refused, then the breaker open: the engine operation and what the client saw', async () => {
      const closed = await freePort();
      const remote = createHttpEngine({ url: `http://127.0.0.1:${closed}`, retryDelaysMs: [], breaker: { failureThreshold: 2 } });
      t = await openOperatorApp({ dialect: name, journal: true, engine: () => remote });
      const ask = async () => {
        const raw = bodyOf({ customer: { type: 'membershipId', value: 'MBR-0001' }, orderValue: 10 });
        const answer = await t!.app.inject({ method: 'POST', url: '/v1/redemption/eligibility', headers: headersFor(raw), payload: raw });
        expect(answer.statusCode).toBe(502);
        return shown(t!, answer.headers['x-request-id'] as string);
      };
      const refused = await ask();
      expect(refused.delivery.failure).toEqual({
        call: 'engine eligibility',
        what: expect.stringMatching(/^connection failed: .*ECONNREFUSED/),
        ms: expect.any(Number),
      });
      await ask();
      const open = await ask();
      expect(open.delivery.failure).toMatchObject({ call: 'engine eligibility', what: expect.stringMatching(/^circuit breaker open/) });
      await remote.close();
    });

    it('no answer within the deadline: timed out', async () => {
      const silent = await silentServer();
      const remote = createHttpEngine({ url: silent.url, timeoutMs: 300, retryDelaysMs: [] });
      t = await openOperatorApp({ dialect: name, journal: true, engine: () => remote });
      const raw = bodyOf({ customer: { type: 'membershipId', value: 'MBR-0001' }, orderValue: 10 });
      const answer = await t.app.inject({ method: 'POST', url: '/v1/redemption/eligibility', headers: headersFor(raw), payload: raw });
      expect(answer.statusCode).toBe(502);
      const { delivery } = await shown(t, answer.headers['x-request-id'] as string);
      expect(delivery.failure).toEqual({ call: 'engine eligibility', what: expect.stringMatching(/^timed out: /), ms: expect.any(Number) });
      expect(delivery.failure!.ms).toBeGreaterThanOrEqual(250);
      await remote.close();
      await silent.close();
    });
  });
});
