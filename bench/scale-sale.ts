import { signedHeaders } from '@loyalty-gateway/core';

/**
 * The scale benchmark's seed and sales (bench/scale-seed.ts, bench/scale.ts): the benchmarks' seed
 * (bench/seed.ts, one store) and the same signed sale as bench/signed-load.ts, without its load
 * generator (the scale bench drives its own keep-alive connections).
 */
export const SECRET = 'whsec_bench_secret_value_0123456789';
export const STORE = 'bench-store-1';

export const scaleSeed = {
  codePrefix: 'LOYAL',
  vendors: [{ slug: 'bench-pos', name: 'Bench POS', tier: 'generic' }],
  merchants: [
    {
      id: 'm-bench',
      name: 'Bench Coffee',
      currency: 'USD',
      defaultCountryCode: '1',
      earnRate: 1,
      redemptionRate: 100,
      outlets: [{ id: 'o-bench', name: 'Bench outlet 1' }],
      connections: [{ vendor: 'bench-pos', storeId: STORE, outletId: 'o-bench', secret: SECRET, active: true }],
      members: [{ membershipId: 'MBR-BENCH', phone: '+15550109999', email: 'bench@example.com', externalId: 'crm-bench', points: 0 }],
      rewards: [
        {
          id: '0b6f8a3e-1c1d-4a7e-9d0a-7f1f2b9d0c11',
          type: 'STAMP',
          title: 'Coffee card',
          stampsRequired: 10,
          match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
        },
      ],
      issuedCodes: [],
    },
  ],
};

/** A signed sale (2 lattes and a muffin, 12.50 USD) with transaction id `id` for `member`. */
export function scaleSale(member: string, id: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    eventId: `${id}:completed`,
    eventType: 'sale.completed',
    occurredAt: new Date().toISOString(),
    store: { id: STORE },
    transaction: {
      id,
      total: 12.5,
      currency: 'USD',
      channel: 'pos',
      customer: { type: 'membershipId', value: member },
      items: [
        { id: 'p1', name: 'Latte (coffee)', sku: 'COF-LATTE', quantity: 2, unitPrice: 4.5 },
        { id: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: 3.5 },
      ],
    },
  });
  return {
    body,
    headers: { 'content-type': 'application/json', ...signedHeaders({ vendor: 'bench-pos', store: STORE, secret: SECRET, body }) },
  };
}
