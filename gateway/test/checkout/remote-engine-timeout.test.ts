import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS } from '@loyalty-gateway/core';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { SlowStatements } from '@loyalty-gateway/engine/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayFixture } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';
import { MEMBERS, PATHS, byMembership, expectError, expectOk, freshId } from '../../src/testing/checkout-kit.js';
import { openRemoteCheckoutGateway } from '../../src/testing/remote-checkout-gateway.js';

/** The client gives up after TIMEOUT_MS; the slowed statement holds the engine's transaction for SLOW_MS. */
const TIMEOUT_MS = 400;
const SLOW_MS = 700;

describe.each(testDialects())('a remote engine that times out, through the gateway ($name)', ({ name }) => {
  const slow = new SlowStatements();
  let remote: Awaited<ReturnType<typeof openRemoteCheckoutGateway>>;
  let gw: GatewayFixture;
  beforeAll(async () => {
    remote = await openRemoteCheckoutGateway(
      name,
      { timeoutMs: TIMEOUT_MS, retryDelaysMs: [0, 0], breaker: { failureThreshold: 100 } },
      slow,
    );
    gw = remote.gw;
  });
  afterAll(() => remote.close());
  beforeEach(() => slow.clear());

  /** The balance as the till sees it, through the gateway and the engine service. */
  const balance = async (membershipId: string) =>
    (expectOk(await gw.post(PATHS.eligibility, { customer: byMembership(membershipId) })) as { walletBalance: number }).walletBalance;
  /** Let the engine finish (and roll back) the work the client gave up on. */
  const engineSettles = () => sleep(SLOW_MS - TIMEOUT_MS + 300);

  it('eligibility past the deadline: 502 engine_unavailable at the deadline (read-only, but never retried after a timeout), then served again', async () => {
    const body = { customer: byMembership(MEMBERS.rich.id), orderValue: 12.5 };
    slow.set('balances', SLOW_MS, 1); // the member's lookup with the wallet, every eligibility's first read
    const started = performance.now();
    const error = expectError(await gw.post(PATHS.eligibility, body), 502, 'engine_unavailable');
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
    expect(error.message).toBe(ERRORS.engine_unavailable.message);
    await engineSettles();
    slow.clear();
    expect(expectOk(await gw.post(PATHS.eligibility, body))).toMatchObject({ membershipId: MEMBERS.rich.id });
  });

  it('a redeem that times out with 502 deducts nothing (the engine does not commit it afterwards) and the identical retry is REDEEMED', async () => {
    const before = await balance(MEMBERS.rich.id);
    const body = { customer: byMembership(MEMBERS.rich.id), externalTransactionId: freshId('TO'), pointsToRedeem: 70 };
    slow.set('redemptions', SLOW_MS); // the redemption's statement, inside its transaction
    const started = performance.now();
    const error = expectError(await gw.post(PATHS.redeem, body), 502, 'engine_unavailable');
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
    expect(error.message).toBe(ERRORS.engine_unavailable.message);
    await engineSettles();
    slow.clear();
    expect(await balance(MEMBERS.rich.id)).toBe(before);
    expect(expectOk(await gw.post(PATHS.redeem, body))).toMatchObject({
      status: 'REDEEMED',
      pointsDeducted: 70,
      walletBalance: before - 70,
    });
  });

  it('an earn webhook that times out answers 500 engine_unavailable_retry ("may not have been recorded"), the engine records nothing afterwards, and the retry earns', async () => {
    const before = await balance('MBR-0001');
    const base = sale({ total: 30 });
    // A code with the reward prefix: its usage update runs inside the earn's transaction.
    const event = { ...base, transaction: { ...base.transaction, discountCodes: [{ code: 'LOYAL-NOT-ISSUED' }] } };
    slow.set('reward_instances', SLOW_MS, 1);
    const error = expectError(await gw.send(event), 500, 'engine_unavailable_retry');
    expect(error.message).toMatch(/may not have been recorded/);
    await engineSettles();
    slow.clear();
    expect(await balance('MBR-0001')).toBe(before);
    expect((await gw.send(event)).json()).toMatchObject({ status: 'processed', membershipId: 'MBR-0001', pointsEarned: 30 });
    expect(await balance('MBR-0001')).toBe(before + 30);
  });

  it('a refund and a catalog sync that time out with 502 commit nothing afterwards; the retries do the work', async () => {
    const order = freshId('TO');
    expect((await gw.send(sale({ id: order, total: 40, customer: byMembership(MEMBERS.refund.id) }))).json()).toMatchObject({
      pointsEarned: 40,
    });
    const refund = { externalTransactionId: order, refundTransactionId: freshId('TOR') };
    const catalog = { store: { id: 'store-001' }, items: [{ externalId: freshId('item'), name: 'Slow latte', isActive: true }] };
    slow.set('refunds', SLOW_MS, 1).set('catalog_items', SLOW_MS, 1); // the refund's claim; the snapshot's read
    expectError(await gw.post(PATHS.refund, refund), 502, 'engine_unavailable');
    await engineSettles();
    expectError(await gw.post(PATHS.catalog, catalog), 502, 'engine_unavailable');
    await engineSettles();
    slow.clear();
    expect(expectOk(await gw.post(PATHS.refund, refund))).toEqual({ status: 'REVERSED', pointsReversed: 40, pointsReCredited: 0 });
    expect(expectOk(await gw.post(PATHS.catalog, catalog))).toMatchObject({ itemsCreated: 1 });
  });
});
