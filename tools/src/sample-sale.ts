import { randomUUID } from 'node:crypto';
import type { Envelope } from '@loyalty-gateway/core';

export interface SampleSaleOptions {
  storeId: string;
  customer?: { type: 'phone' | 'email' | 'membershipId' | 'externalId'; value: string } | undefined;
  total?: number | undefined;
  transactionId?: string | undefined;
}

/** A canonical `sale.completed` envelope: two coffees and a muffin, for trying a connection out. */
export function sampleSale(options: SampleSaleOptions): Envelope {
  const transactionId = options.transactionId ?? `SAMPLE-${randomUUID().slice(0, 8)}`;
  return {
    eventId: `${transactionId}:completed`,
    eventType: 'sale.completed',
    occurredAt: new Date().toISOString(),
    store: { id: options.storeId },
    transaction: {
      id: transactionId,
      total: options.total ?? 12.5,
      currency: 'USD',
      channel: 'pos',
      ...(options.customer ? { customer: options.customer } : {}),
      items: [
        { id: 'sku-latte', name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 },
        { id: 'sku-muffin', name: 'Blueberry muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: 3.5 },
      ],
      discountCodes: [],
    },
  };
}
