import { saleFingerprint } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { ANN, IDS, line, sale, SCOPE } from '../testing/fixture.js';
import { expectEngineError, type ContractContext } from './contract-harness.js';

const STAMP_TITLE = 'Buy 5 coffees, get one free';

/** previewEarn: what earn would answer now, with nothing committed. */
export function previewContract(t: ContractContext): void {
  describe('previewEarn', () => {
    it('answers what the earn then answers, and moves nothing: no wallet, no card, no sale key', async () => {
      const command = sale({ totalMinor: 1299, items: [line('Latte', 2, { sku: 'COF-LATTE' })] });
      const expected = {
        status: 'processed',
        membershipId: 'MBR-0001',
        pointsEarned: 12,
        stampsUpdated: [{ rewardId: IDS.stamp, rewardTitle: STAMP_TITLE, current: 2, required: 5, completed: false }],
        warning: null,
        fingerprint: saleFingerprint(command.transaction),
      };
      expect(await t.engine.previewEarn(command)).toEqual(expected);
      // Again: the card did not move, the sale key is still free.
      expect(await t.engine.previewEarn(command)).toEqual(expected);
      expect(await t.balance(ANN)).toBe(1200);
      expect(await t.engine.earn(command)).toEqual(expected);
      expect(await t.balance(ANN)).toBe(1212);
      expect(await t.engine.previewEarn({ ...command, eventId: 'again' })).toEqual({
        status: 'duplicate',
        membershipId: '',
        pointsEarned: 0,
        stampsUpdated: [],
        warning: null,
        fingerprint: saleFingerprint(command.transaction),
      });
      // The next sale's card starts where the earn left it, not where the previews would have.
      expect((await t.engine.earn(sale({ items: [line('Coffee', 1)] }))).stampsUpdated[0]).toMatchObject({ current: 3 });
    });

    it('names a conflicting resend, and says why a sale earns nothing, as the earn does', async () => {
      const command = sale({ totalMinor: 1000 });
      await t.engine.earn(command);
      const conflict = await t.engine.previewEarn({ ...command, transaction: { ...command.transaction, totalMinor: 2000 } });
      expect(conflict).toMatchObject({ status: 'duplicate', pointsEarned: 0, conflict: { firstReceivedAt: expect.any(String) } });
      for (const customer of [undefined, { type: 'phone', value: '+1 555 010 9999' } as const]) {
        const walkIn = sale({ customer });
        const previewed = await t.engine.previewEarn(walkIn);
        expect(previewed).toMatchObject({ status: 'processed', membershipId: '', pointsEarned: 0 });
        expect(previewed).toEqual(await t.engine.earn(walkIn));
      }
      const euro = sale({ currency: 'EUR' });
      expect((await t.engine.previewEarn(euro)).warning).toBe((await t.engine.earn(euro)).warning);
      expect(await t.balance(ANN)).toBe(1210);
    });

    it('applies refunds that came first to its answer only: the earn after it still finds them', async () => {
      const command = sale({ totalMinor: 6000 });
      await t.engine.reverse({ ...SCOPE, transactionId: command.transaction.id, refundId: 'r-1', amountMinor: 3000 });
      const previewed = await t.engine.previewEarn(command);
      expect(previewed).toMatchObject({ status: 'processed', pointsEarned: 30 });
      expect(previewed.warning).toContain('refund r-1');
      expect(await t.engine.earn(command)).toEqual(previewed);
      expect(await t.balance(ANN)).toBe(1230);
    });

    it('refuses what the earn refuses, with its code', async () => {
      await t.engine.earn(sale({ items: [line('Coffee', 3)] }));
      const tooMany = sale({ items: [line('Coffee', Number.MAX_SAFE_INTEGER)] });
      await expectEngineError(t.engine.previewEarn(tooMany), 'validation_failed', 422, 'coded');
      await expectEngineError(t.engine.earn(tooMany), 'validation_failed', 422, 'coded');
    });

    it('20 previews and earns of one sale at once: the wallet moves once, each preview is the earn or a duplicate', async () => {
      const command = sale({ totalMinor: 4200, items: [line('Coffee', 2)] });
      const calls = Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? t.engine.previewEarn({ ...command, eventId: `p-${i}` }) : t.engine.earn({ ...command, eventId: `e-${i}` }),
      );
      const answers = await Promise.all(calls);
      const earns = answers.filter((_, i) => i % 2 === 1);
      const previews = answers.filter((_, i) => i % 2 === 0);
      expect(earns.filter((a) => a.status === 'processed')).toHaveLength(1);
      for (const preview of previews) expect(preview.pointsEarned).toBe(preview.status === 'processed' ? 42 : 0);
      expect(previews.every((p) => p.status === 'processed' || p.status === 'duplicate')).toBe(true);
      expect(await t.balance(ANN)).toBe(1242);
      expect((await t.engine.earn(sale({ items: [line('Coffee', 1)] }))).stampsUpdated[0]).toMatchObject({ current: 3 });
    });
  });
}
