import { SECRET, STORE } from './signed-load.js';

/** The benchmarks' gateway seed: one generic vendor, one merchant and outlet, the bench connection, one member, a stamp card. */
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
      outlets: [{ id: 'o-bench', name: 'Bench outlet' }],
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
