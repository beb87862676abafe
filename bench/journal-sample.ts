import { randomUUID } from 'node:crypto';

/** The request body the journal benches keep an entry of: a small sale, as the generic door receives it. */
export function sampleSaleBody(): Buffer {
  return Buffer.from(
    JSON.stringify({
      eventType: 'sale.completed',
      occurredAt: new Date().toISOString(),
      store: { id: 'store-1' },
      transaction: { id: randomUUID(), total: '12.50', currency: 'EUR', items: [{ sku: 'A-1', quantity: 1, unitPrice: '12.50' }] },
      customer: { memberId: 'member-0001' },
    }),
  );
}
