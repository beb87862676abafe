import { setImmediate as nextEvent } from 'node:timers/promises';
import type { LoyaltyEngine } from '@loyalty-gateway/core';
import { ANN, SCOPE, sale, testSeed, uniqueId } from '@loyalty-gateway/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngineService, type EngineServiceHarness } from '../testing/engine-service-harness.js';

/** One call of every kind the port makes (GET and POST, reads and writes). */
const calls = (client: LoyaltyEngine): Array<() => Promise<unknown>> => {
  const order = uniqueId('keep-alive');
  return [
    () => client.ping(),
    () => client.earn(sale()),
    () => client.eligibility({ ...SCOPE, customer: ANN }),
    () => client.redeem({ ...SCOPE, customer: ANN, externalTransactionId: order, pointsToRedeem: 10 }),
    () => client.reverse({ ...SCOPE, transactionId: order, refundId: `${order}-r` }),
    () => client.findOutlet({ merchantId: SCOPE.merchantId, outletId: SCOPE.outletId }),
    () => client.catalogSync({ ...SCOPE, items: [{ externalId: order, name: 'Latte', isActive: true }] }),
  ];
};

describe('the engine transport keeps its connections alive (undici Pool, real sockets)', () => {
  let harness: EngineServiceHarness;
  let connections = 0;
  afterEach(async () => {
    await harness.close();
  });
  async function open() {
    harness = await openEngineService('sqlite');
    await harness.embedded.applySeed(testSeed());
    connections = 0;
    harness.server.server.on('connection', () => {
      connections += 1;
    });
  }

  it('sequential calls, each started by its own event as gateway requests are, share one TCP connection', async () => {
    await open();
    for (let round = 0; round < 2; round += 1) {
      for (const call of calls(harness.client)) {
        await call();
        await nextEvent();
      }
    }
    expect(connections).toBe(1);
  });

  it('back-to-back calls in one async chain never cost a connection each', async () => {
    // undici learns a socket is free again on a later tick, so a call chained directly after the
    // previous answer may open a second socket; it then alternates between the two.
    await open();
    for (let round = 0; round < 3; round += 1) for (const call of calls(harness.client)) await call();
    expect(connections).toBeGreaterThanOrEqual(1);
    expect(connections).toBeLessThanOrEqual(2);
  });
});
