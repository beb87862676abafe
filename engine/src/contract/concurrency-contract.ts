import { describe, expect, it } from 'vitest';
import { ANN, SCOPE, line, sale } from '../testing/fixture.js';
import type { ContractContext } from './contract-harness.js';

export function concurrencyContract(t: ContractContext): void {
  describe('concurrency', () => {
    it('20 parallel copies of one sale: exactly one processed, points and stamps credited once', async () => {
      const command = sale({ totalMinor: 4200, items: [line('Coffee', 2)] });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.engine.earn({ ...command, eventId: `e-${i}` })));
      expect(results.filter((r) => r.status === 'processed')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(19);
      expect(await t.balance(ANN)).toBe(1242);
      const next = await t.engine.earn(sale({ items: [line('Coffee', 1)] }));
      expect(next.stampsUpdated[0]).toMatchObject({ current: 3 });
    });

    it('10 concurrent redemptions over budget: exactly the ones that fit, never below zero', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.engine.redeem({ ...SCOPE, customer: ANN, externalTransactionId: `order-${i}`, pointsToRedeem: 300 }).then(
            (r) => ({ ok: true as const, balance: r.walletBalance }),
            (e: { code?: string }) => ({ ok: false as const, code: e.code }),
          ),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(4);
      expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.code))).toEqual(Array(6).fill('insufficient_points'));
      expect(await t.balance(ANN)).toBe(0);
    });
  });
}
