import { describe, expect, it } from 'vitest';
import { featuredAudit } from './featured-audit.js';
import type { FeaturedResult } from './featured-types.js';

const result = (status: FeaturedResult['status'], n: number): FeaturedResult => ({
  storeId: 'store-1',
  eventId: `evt-${n}`,
  eventType: 'sale.completed',
  transactionId: `tx-${n}`,
  status,
  membershipId: 'MBR-1',
  pointsEarned: 1,
  stampsUpdated: [],
  warning: null,
});

describe('featuredAudit (the request line and the journal entry of a featured delivery)', () => {
  it('names the one event of a delivery; counts a batch by status, stores skipped and events refused', () => {
    expect(featuredAudit([result('processed', 1)], 0)).toEqual({
      eventType: 'sale.completed',
      eventId: 'evt-1',
      transactionId: 'tx-1',
      refundId: undefined,
      outcome: 'processed',
      warning: null,
    });
    expect(featuredAudit([result('processed', 1), result('duplicate', 2)], 1)).toMatchObject({
      outcome: 'processed×1 duplicate×1 skipped×1',
    });
    // An event the ledger refused is counted as such, never hidden behind its delivery's one processed event.
    expect(featuredAudit([result('processed', 1)], 0, 1)).toMatchObject({ outcome: 'processed×1 refused×1' });
    expect(featuredAudit([], 0, 2)).toMatchObject({ outcome: 'refused×2' });
    expect(featuredAudit([], 0)).toMatchObject({ outcome: 'accepted' });
    // Events of several orders name none.
    expect(featuredAudit([result('processed', 1), result('duplicate', 2)], 1).transactionId).toBeUndefined();
  });

  it("carries the events' warnings to the journal: the one event's, or a batch's first and how many more", () => {
    const warned = (n: number, warning: string | null): FeaturedResult => ({ ...result('processed', n), warning });
    expect(featuredAudit([warned(1, 'Walk-in sale: no customer on the sale.')], 0).warning).toBe('Walk-in sale: no customer on the sale.');
    expect(featuredAudit([warned(1, null), warned(2, 'first'), warned(3, 'second'), warned(4, 'third')], 0).warning).toBe(
      'first (and 2 more warnings in this delivery)',
    );
    expect(featuredAudit([warned(1, null), warned(2, null)], 0).warning).toBeUndefined();
  });

  it("names the order when every event is of one order (a WooCommerce order's sale and refunds): the journal finds it by its id", () => {
    const order = (status: FeaturedResult['status'], eventType: string): FeaturedResult => ({
      ...result(status, 7),
      eventType,
      transactionId: '727',
    });
    expect(featuredAudit([order('duplicate', 'sale.completed'), order('processed', 'sale.refunded')], 0)).toMatchObject({
      outcome: 'duplicate×1 processed×1',
      transactionId: '727',
    });
  });
});
