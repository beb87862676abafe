/** The seed document gateway tests run on (the sandbox file format, connections included). */
export const SECRET = 'whsec_test_secret_0123456789abcdef';
export const OTHER_SECRET = 'whsec_other_secret_0123456789abcdef';
export const VENDOR = 'acme-pos';
export const STORE = 'store-001';
/** A store id as a merchant typed it: case, inner space and a slash are all significant. */
export const ODD_STORE = 'Main St/Unit 7';
export const INACTIVE_STORE = 'store-closed';
export const STAMP_REWARD = '6f1c2a7e-0b7d-4c1a-9a3e-000000000001';

export function testSeedDocument() {
  return {
    codePrefix: 'LOYAL',
    vendors: [
      { slug: VENDOR, name: 'Acme POS', tier: 'generic' },
      { slug: 'other-pos', name: 'Other POS', tier: 'generic' },
    ],
    merchants: [
      {
        id: 'm-bean',
        name: 'Bean There',
        currency: 'USD',
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 100,
        outlets: [
          { id: 'o-downtown', name: 'Downtown' },
          { id: 'o-uptown', name: 'Uptown' },
        ],
        connections: [
          { vendor: VENDOR, storeId: STORE, outletId: 'o-downtown', secret: SECRET, active: true },
          { vendor: VENDOR, storeId: ODD_STORE, outletId: 'o-uptown', secret: OTHER_SECRET, active: true },
          { vendor: VENDOR, storeId: INACTIVE_STORE, outletId: 'o-uptown', secret: SECRET, active: false },
        ],
        members: [
          { membershipId: 'MBR-0001', phone: '+15550100001', email: 'ann@example.com', externalId: 'crm-1', points: 1200 },
          { membershipId: 'MBR-0002', phone: '+15550100002', email: 'bob@example.com', points: 0 },
        ],
        rewards: [
          {
            id: STAMP_REWARD,
            type: 'STAMP',
            title: 'Buy 5 coffees, get one free',
            stampsRequired: 5,
            match: { skus: ['COF-LATTE'], keywords: ['coffee'] },
          },
          { id: '6f1c2a7e-0b7d-4c1a-9a3e-000000000002', type: 'POINTS', title: '$5 off', pointsCost: 500, discountValue: 5 },
        ],
        issuedCodes: [],
      },
    ],
  };
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
