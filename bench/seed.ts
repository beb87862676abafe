import { SECRET, STORES } from './signed-load.js';

/** The outlet of the i-th store's connection (the first one is the bench's own, o-bench). */
const outletOf = (i: number): string => (i === 0 ? 'o-bench' : `o-bench-${i + 1}`);

/**
 * The benchmarks' gateway seed: one generic vendor, one merchant, the bench connection and its outlet
 * (with BENCH_STORES, that many connections, an outlet each), one member, a stamp card.
 */
export const seed = {
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
      outlets: STORES.map((_, i) => ({ id: outletOf(i), name: `Bench outlet ${i + 1}` })),
      connections: STORES.map((storeId, i) => ({
        vendor: 'bench-pos',
        storeId,
        outletId: outletOf(i),
        secret: SECRET,
        active: true,
      })),
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
