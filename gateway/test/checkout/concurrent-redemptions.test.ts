import { testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { MEMBERS, PATHS, REWARDS, byMembership, freshId, openCheckoutGateway } from '../../src/testing/checkout-kit.js';
import { postConcurrently } from '../../src/testing/post-concurrently.js';

const postAll = (address: string, bodies: string[]) => postConcurrently(address, PATHS.redeem, bodies);

describe.each(testDialects())('concurrent redemptions over real HTTP ($name)', ({ name }) => {
  it('ten redemptions that together exceed the balance: exactly the ones that fit succeed, the balance is exact, never negative', async () => {
    const gw = await openCheckoutGateway(name);
    try {
      const address = await gw.app.listen({ host: '127.0.0.1', port: 0 });
      const member = MEMBERS.concurrent;
      const bodies = Array.from({ length: 10 }, () =>
        JSON.stringify({ customer: byMembership(member.id), externalTransactionId: freshId('C'), pointsToRedeem: 300 }),
      );
      const answers = await postAll(address, bodies);
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      expect(won).toHaveLength(Math.floor(member.points / 300)); // 3
      expect(won.every((a) => a.body.status === 'REDEEMED' && a.body.pointsDeducted === 300)).toBe(true);
      expect(lost.every((a) => a.status === 400 && a.body.code === 'insufficient_points')).toBe(true);
      expect(won.map((a) => a.body.walletBalance).sort()).toEqual([100, 400, 700]);
      expect(await gw.balance(member.id)).toBe(member.points % 300); // 100
    } finally {
      await gw.close();
    }
  });

  it('ten copies of one redemption at once: one REDEEMED, nine ALREADY_PROCESSED with the same figures, deducted once', async () => {
    const gw = await openCheckoutGateway(name);
    try {
      const address = await gw.app.listen({ host: '127.0.0.1', port: 0 });
      const before = await gw.balance(MEMBERS.rich.id);
      const body = JSON.stringify({
        customer: byMembership(MEMBERS.rich.id),
        externalTransactionId: freshId('C'),
        rewardId: REWARDS.fiveOff,
      });
      const answers = await postAll(address, Array(10).fill(body));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers.filter((a) => a.body.status === 'REDEEMED')).toHaveLength(1);
      expect(answers.filter((a) => a.body.status === 'ALREADY_PROCESSED')).toHaveLength(9);
      expect(new Set(answers.map((a) => a.body.walletBalance))).toEqual(new Set([before - 500]));
      expect(await gw.balance(MEMBERS.rich.id)).toBe(before - 500);
    } finally {
      await gw.close();
    }
  });
});
