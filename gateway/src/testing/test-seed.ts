/** The generic seed document gateway tests run on (`buildSeed`'s generic base) and envelopes for it. */
import { STORE, buildSeed, type SeedDocument } from './seed-builder.js';

export { INACTIVE_STORE, ODD_STORE, OTHER_SECRET, SECRET, STAMP_REWARD, STORE, VENDOR } from './seed-builder.js';

export function testSeedDocument(): SeedDocument {
  return buildSeed();
}

let counter = 0;

/** A valid sale.completed envelope with a fresh transaction id. */
export function sale(overrides: { id?: string; total?: number; customer?: { type: string; value: string } | null; store?: string } = {}) {
  counter += 1;
  const id = overrides.id ?? `T-${process.pid}-${Date.now()}-${counter}`;
  return {
    eventId: `${id}:completed`,
    eventType: 'sale.completed',
    occurredAt: '2025-06-01T10:00:00Z',
    store: { id: overrides.store ?? STORE, name: 'Downtown' },
    transaction: {
      id,
      total: overrides.total ?? 12.5,
      currency: 'USD',
      channel: 'pos',
      ...(overrides.customer === null ? {} : { customer: overrides.customer ?? { type: 'membershipId', value: 'MBR-0001' } }),
      items: [
        { id: 'p1', name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 },
        { id: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: 3.5 },
      ],
    },
  };
}

/** A sale.refunded envelope for `transactionId`. */
export function refund(transactionId: string, refundId: string, amount?: number) {
  return {
    eventId: `${refundId}:refunded`,
    eventType: 'sale.refunded',
    occurredAt: '2025-06-02T10:00:00Z',
    store: { id: STORE },
    transaction: { id: transactionId, currency: 'USD' },
    refund: { id: refundId, ...(amount === undefined ? {} : { amount }) },
  };
}
