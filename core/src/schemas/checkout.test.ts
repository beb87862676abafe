import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { CatalogSyncRequest } from './catalog.js';
import { EligibilityRequest, RedeemRequest, RefundRequest } from './checkout.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return `${error.statusCode} ${error.code} ${error.fields?.map((f) => f.path).join(',')}`;
    throw error;
  }
  return 'ok';
}

const customer = { type: 'membershipId', value: 'MBR-0001' };

describe('checkout requests', () => {
  it('EligibilityRequest: customer required, orderValue money', () => {
    expect(codeOf(() => parseOrThrow(EligibilityRequest, { customer }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(EligibilityRequest, { customer, orderValue: 42.5 }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(EligibilityRequest, {}))).toBe('400 missing_field customer');
    expect(codeOf(() => parseOrThrow(EligibilityRequest, { customer, orderValue: 0 }))).toBe('422 validation_failed orderValue');
    expect(codeOf(() => parseOrThrow(EligibilityRequest, { customer, cart: [] }))).toBe('422 validation_failed cart');
  });

  it('RedeemRequest: uuid rewardId, positive integer pointsToRedeem, 255 limit', () => {
    const base = { customer, externalTransactionId: 'T-1' };
    expect(codeOf(() => parseOrThrow(RedeemRequest, { ...base, rewardId: '6f1c2a7e-9a55-4c1b-8a53-0d6c1f1d2b10' }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(RedeemRequest, { ...base, pointsToRedeem: 250 }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(RedeemRequest, { ...base, rewardId: 'free-coffee' }))).toBe('422 validation_failed rewardId');
    expect(codeOf(() => parseOrThrow(RedeemRequest, { ...base, pointsToRedeem: 0 }))).toBe('422 validation_failed pointsToRedeem');
    expect(codeOf(() => parseOrThrow(RedeemRequest, { ...base, pointsToRedeem: 2.5 }))).toBe('422 validation_failed pointsToRedeem');
    expect(codeOf(() => parseOrThrow(RedeemRequest, { customer, externalTransactionId: 'x'.repeat(256) }))).toBe(
      '422 validation_failed externalTransactionId',
    );
    expect(codeOf(() => parseOrThrow(RedeemRequest, { customer }))).toBe('400 missing_field externalTransactionId');
  });

  it('RefundRequest: both ids required, amount money', () => {
    const base = { externalTransactionId: 'T-1', refundTransactionId: 'R-1' };
    expect(codeOf(() => parseOrThrow(RefundRequest, base))).toBe('ok');
    expect(codeOf(() => parseOrThrow(RefundRequest, { ...base, refundAmount: 5.25 }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(RefundRequest, { ...base, refundAmount: 5.255 }))).toBe('422 validation_failed refundAmount');
    expect(codeOf(() => parseOrThrow(RefundRequest, { externalTransactionId: 'T-1' }))).toBe('400 missing_field refundTransactionId');
  });

  it('CatalogSyncRequest: strict items with limits', () => {
    const item = { externalId: 'p-1', name: 'Latte', sku: 'COF-LATTE', category: 'Coffee', price: 4.5, isActive: true };
    expect(codeOf(() => parseOrThrow(CatalogSyncRequest, { store: { id: 's' }, items: [item] }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(CatalogSyncRequest, { store: { id: 's' }, items: [] }))).toBe('ok');
    expect(codeOf(() => parseOrThrow(CatalogSyncRequest, { store: { id: 's' }, items: [{ ...item, isActive: 'yes' }] }))).toBe(
      '422 validation_failed items[0].isActive',
    );
    expect(codeOf(() => parseOrThrow(CatalogSyncRequest, { store: { id: 's' }, items: [{ ...item, category: 'c'.repeat(256) }] }))).toBe(
      '422 validation_failed items[0].category',
    );
    const { isActive: _drop, ...noActive } = item;
    expect(codeOf(() => parseOrThrow(CatalogSyncRequest, { store: { id: 's' }, items: [noActive] }))).toBe(
      '400 missing_field items[0].isActive',
    );
  });
});
