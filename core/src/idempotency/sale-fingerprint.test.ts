import { describe, expect, it } from 'vitest';
import { saleFingerprint, type SaleDetails } from './sale-fingerprint.js';

const base: SaleDetails = {
  totalMinor: 1250,
  currency: 'USD',
  customer: { type: 'membershipId', value: 'MBR-1' },
  items: [{ id: 'p1', name: 'Latte', sku: 'COF', quantity: 2, unitPriceMinor: 450 }],
};

describe('saleFingerprint', () => {
  it('is the same for the same sale however it was serialised (values, not bytes)', () => {
    const reparsed = JSON.parse(
      JSON.stringify({ items: base.items, customer: base.customer, currency: 'USD', totalMinor: 1250 }),
    ) as SaleDetails;
    expect(saleFingerprint(reparsed)).toBe(saleFingerprint(base));
    expect(saleFingerprint(base)).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ['another total', { totalMinor: 1251 }],
    ['another currency', { currency: 'EUR' }],
    ['another customer', { customer: { type: 'membershipId', value: 'MBR-2' } }],
    ['no customer (walk-in)', { customer: undefined }],
    ['another quantity', { items: [{ ...base.items[0]!, quantity: 3 }] }],
    ['another line', { items: [...base.items, { name: 'Muffin', quantity: 1, unitPriceMinor: 350 }] }],
  ] as Array<[string, Partial<SaleDetails>]>)('differs for %s', (_label, change) => {
    expect(saleFingerprint({ ...base, ...change })).not.toBe(saleFingerprint(base));
  });
});
