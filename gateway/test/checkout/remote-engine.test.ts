import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEngine, type HttpEngine } from '../../src/engine-client/index.js';
import type { EngineServiceHarness } from '../../src/testing/engine-service-harness.js';
import { closedPortUrl } from '../../src/testing/scripted-server.js';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { refund as refundEvent, sale } from '../../src/testing/test-seed.js';
import {
  MEMBERS,
  PATHS,
  REWARDS,
  byMembership,
  expectError,
  expectOk,
  freshId,
  openCheckoutGateway,
} from '../../src/testing/checkout-kit.js';
import { openRemoteCheckoutGateway } from '../../src/testing/remote-checkout-gateway.js';

/** One valid request per endpoint (fresh ids each time). */
const requests = () => [
  { path: PATHS.eligibility, body: { customer: byMembership(MEMBERS.rich.id) } },
  { path: PATHS.redeem, body: { customer: byMembership(MEMBERS.rich.id), externalTransactionId: freshId('X'), pointsToRedeem: 10 } },
  { path: PATHS.refund, body: { externalTransactionId: freshId('X'), refundTransactionId: freshId('XR') } },
  { path: PATHS.catalog, body: { store: { id: 'store-001' }, items: [{ externalId: 'x', name: 'X', isActive: true }] } },
];

async function expectEngineUnavailable(gw: GatewayFixture): Promise<void> {
  for (const { path, body } of requests()) {
    const error = expectError(await gw.post(path, body), 502, 'engine_unavailable');
    expect(error.message).toMatch(/Retry once, then complete the sale without loyalty/);
  }
  // the earn webhook answers 5xx so the vendor retries; liveness never touches the engine
  expectError(await gw.send(sale()), 500, 'engine_unavailable_retry');
  // a sale.refunded event too: 5xx, so the vendor retries the refund (not a 502, which tells tills to give up)
  const refunded = await gw.send(refundEvent(freshId('X'), freshId('XR')));
  expect(refunded.statusCode, refunded.body).toBeGreaterThanOrEqual(500);
  expect(refunded.json()).toMatchObject({
    statusCode: refunded.statusCode,
    code: 'engine_unavailable_retry',
    requestId: refunded.headers['x-request-id'],
  });
  expect((await gw.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  const ready = expectError(await gw.app.inject({ method: 'GET', url: '/ready' }), 503, 'not_ready');
  expect(ready.message).toMatch(/engine/);
  expect(ready.message).not.toMatch(/store/);
}

describe.each(testDialects())('checkout through the HTTP engine and the engine service ($name)', ({ name }) => {
  let remote: Awaited<ReturnType<typeof openRemoteCheckoutGateway>>;
  let service: EngineServiceHarness;
  let gw: GatewayFixture;
  beforeAll(async () => {
    remote = await openRemoteCheckoutGateway(name, { retryDelaysMs: [0, 0], breaker: { failureThreshold: 100 } });
    ({ service, gw } = remote);
  });
  afterAll(() => remote.close());

  it('every endpoint answers through the remote engine; engine refusals render as themselves', async () => {
    expect(expectOk(await gw.post(PATHS.eligibility, { customer: byMembership(MEMBERS.rich.id) }))).toMatchObject({
      membershipId: MEMBERS.rich.id,
      walletBalance: MEMBERS.rich.points,
    });
    const order = freshId('X');
    const redeem = { customer: byMembership(MEMBERS.rich.id), externalTransactionId: order, rewardId: REWARDS.fiveOff };
    const first = expectOk(await gw.post(PATHS.redeem, redeem));
    expect(first).toMatchObject({ status: 'REDEEMED', pointsDeducted: 500, walletBalance: MEMBERS.rich.points - 500 });
    expect(expectOk(await gw.post(PATHS.redeem, redeem))).toEqual({ ...(first as object), status: 'ALREADY_PROCESSED' });
    expectError(await gw.post(PATHS.redeem, { ...redeem, customer: byMembership(MEMBERS.poor.id) }), 409, 'already_redeemed');
    const short = expectError(
      await gw.post(PATHS.redeem, { ...redeem, externalTransactionId: freshId('X'), customer: byMembership(MEMBERS.poor.id) }),
      400,
      'insufficient_points',
    );
    expect(short.message).toBe('Needs 500 points; customer has 100 (400 short).');
    expectError(await gw.post(PATHS.redeem, { ...redeem, customer: byMembership('MBR-NOPE') }), 404, 'member_not_found');
    const refund = { externalTransactionId: order, refundTransactionId: freshId('XR') };
    expect(expectOk(await gw.post(PATHS.refund, refund))).toEqual({ status: 'REVERSED', pointsReversed: 0, pointsReCredited: 500 });
    expect(expectOk(await gw.post(PATHS.refund, refund))).toEqual({
      status: 'ALREADY_PROCESSED',
      pointsReversed: 0,
      pointsReCredited: 500,
    });
    const catalog = { store: { id: 'store-001' }, items: [{ externalId: 'x', name: 'X', isActive: true }] };
    expect(expectOk(await gw.post(PATHS.catalog, catalog))).toMatchObject({ itemsReceived: 1, itemsCreated: 1 });
    expect(expectOk(await gw.app.inject({ method: 'GET', url: '/ready' }))).toEqual({
      status: 'ready',
      checks: { store: 'ok', engine: 'ok' },
    });
  });

  it('the engine service stopped: 502 engine_unavailable on the four, 500 on the webhook, /health 200, /ready 503', async () => {
    await service.server.close();
    await expectEngineUnavailable(gw);
  });
});

describe('the HTTP engine pointed at a closed port', () => {
  let engine: HttpEngine;
  let gw: GatewayFixture;
  beforeAll(async () => {
    engine = createHttpEngine({ url: await closedPortUrl(), timeoutMs: 500, retryDelaysMs: [0, 0] });
    gw = await openCheckoutGateway('sqlite', { appEngine: engine });
  });
  afterAll(async () => {
    await gw.close();
    await engine.close();
  });

  it('502 engine_unavailable in the Error body, and again once the circuit is open (fail fast)', async () => {
    await expectEngineUnavailable(gw);
    expect(engine.circuitState()).toBe('open');
    await expectEngineUnavailable(gw);
  });

  it('validation still comes first: a bad body is 422, not 502', async () => {
    expectError(
      await gw.post(PATHS.redeem, { customer: byMembership('x'), externalTransactionId: 'o', pointsToRedeem: 0 }),
      422,
      'validation_failed',
    );
  });
});
