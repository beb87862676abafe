import { decimalToMinor } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.js';
import { fixtures } from './testing/index.js';
import { ShopifyRefund } from './native.js';
import { refundEnvelopes } from './map-refund.js';
import { refundMoney, refundShopCurrency } from './refund-money.js';

describe('decimalToMinor (exact, via core toMinorUnits)', () => {
  it.each([
    ['19.99', 1999],
    ['0.07', 7],
    ['598.94', 59894],
    ['10.000', 1000],
    ['100', 10000],
    [' 0.10 ', 10],
    [89.99, 8999],
    [0.07, 7],
  ])('%j → %i minor units', (input, minor) => {
    expect(decimalToMinor(input)).toBe(minor);
  });

  it.each(['1.234', '', 'abc', '1e3', 'Infinity', '19.99.1'])('%j is not an amount in cents', (input) => {
    expect(decimalToMinor(input)).toBeNull();
  });

  it('sums without float drift: 0.1 + 0.2 in minor units is exactly 30', () => {
    expect((decimalToMinor('0.10') ?? 0) + (decimalToMinor('0.20') ?? 0)).toBe(30);
  });
});

describe('refundMoney (uncertain Shopify facts isolated here)', () => {
  const refundOf = (name: string) => ShopifyRefund.parse(parseExactJson(fixtures.text(name)));

  it('sums successful refund transactions in their currency', () => {
    expect(refundMoney(refundOf('refunds-create.json'))).toEqual({ minor: 20900, currency: 'USD' });
  });

  it('falls back to the shop currency when transactions say currency: null (documented sample)', () => {
    const sample = refundOf('refunds-create-test-notification.json');
    expect(refundShopCurrency(sample)).toBe('USD');
    expect(refundMoney(sample)).toEqual({ minor: 8500, currency: 'USD' });
  });

  it('ignores failed and non-refund transactions; none left means 0', () => {
    const refund = ShopifyRefund.parse({
      id: 1,
      order_id: 2,
      transactions: [
        { kind: 'refund', status: 'failure', amount: '5.00', currency: 'EUR' },
        { kind: 'sale', status: 'success', amount: '5.00', currency: 'EUR' },
      ],
    });
    expect(refundMoney(refund)).toEqual({ minor: 0, currency: null });
  });

  it('cannot compute mixed currencies or sub-cent amounts (amount then omitted)', () => {
    const mixed = ShopifyRefund.parse({
      id: 1,
      order_id: 2,
      transactions: [
        { kind: 'refund', status: 'success', amount: '5.00', currency: 'EUR' },
        { kind: 'refund', status: 'success', amount: '5.00', currency: 'USD' },
      ],
    });
    expect(refundMoney(mixed).minor).toBeNull();
    const kwd = ShopifyRefund.parse({
      id: 1,
      order_id: 2,
      transactions: [{ kind: 'refund', status: 'success', amount: '1.234', currency: 'KWD' }],
    });
    expect(refundMoney(kwd)).toEqual({ minor: null, currency: 'KWD' });
  });
});

describe('refunds on multi-currency shops (transactions in the presentment currency)', () => {
  // Shopify's documented refunds/create (unedited fixture) as a multi-currency shop sends it: the
  // same refund, paid back in EUR (the presentment currency), its line's money set in both.
  const documented = () => ShopifyRefund.parse(parseExactJson(fixtures.text('refunds-create.json')));
  const inEuros = (subtotalSet: unknown) =>
    ShopifyRefund.parse({
      ...documented(),
      transactions: documented().transactions!.map((t) => ({ ...t, amount: '190.00', currency: 'EUR' })),
      refund_line_items: [{ ...documented().refund_line_items![0], subtotal_set: subtotalSet }],
    });

  it("a EUR refund of a USD shop is reported as its USD value at Shopify's own rate, never as EUR 190.00 against a USD sale", () => {
    const refund = inEuros({
      shop_money: { amount: '195.66', currency_code: 'USD' },
      presentment_money: { amount: '180.00', currency_code: 'EUR' },
    });
    // 190.00 EUR × 195.66 / 180.00 = 206.53 USD
    expect(refundMoney(refund)).toEqual({ minor: 20653, currency: 'USD' });
  });

  it('without a money set giving both, nothing is reversed and the note says why', () => {
    const refund = inEuros({
      shop_money: { amount: '195.66', currency_code: 'USD' },
      presentment_money: { amount: '195.66', currency_code: 'USD' },
    });
    expect(refundMoney(refund)).toMatchObject({ minor: null, currency: 'USD', unconvertible: expect.stringContaining('EUR 190') });
    const mapped = refundEnvelopes(
      { topic: 'refunds/create', eventId: 'e-1', webhookId: null, triggeredAt: null, body: refund },
      'shop.myshopify.com',
      new Date(),
    );
    expect(mapped.envelopes).toEqual([]);
    expect(mapped.note).toMatch(/nothing reversed/);
  });

  it('the converted refund is reported in shop money', () => {
    const refund = inEuros({
      shop_money: { amount: '195.66', currency_code: 'USD' },
      presentment_money: { amount: '180.00', currency_code: 'EUR' },
    });
    const mapped = refundEnvelopes(
      { topic: 'refunds/create', eventId: 'e-2', webhookId: null, triggeredAt: null, body: refund },
      'shop.myshopify.com',
      new Date(),
    );
    expect(mapped.envelopes[0]).toMatchObject({ eventType: 'sale.refunded', transaction: { currency: 'USD' }, refund: { amount: 206.53 } });
  });
});

describe('shipping-only, tax-only and duties refunds in the presentment currency (API 2024-10+)', () => {
  // Shopify's recorded shipping-only refund (929361471, unedited fixture) as a multi-currency shop
  // sends it from API 2024-10 on: paid back in EUR, the shipping line's money set in both
  // currencies, and WITHOUT the shipping order adjustment ("Refunded shipping costs will not be
  // present in the webhook payload for REFUNDS_CREATE as of 2024-10", changelog
  // exposing-the-order-adjustments-connection-on-a-refund). The recording's `test: true` flipped
  // to false: a live refund.
  const recorded = () => (parseExactJson(fixtures.text('refunds-create-shipping-only-refund-shipping-lines.response.json')) as any).refund;
  const shippingInEuros = () => {
    const refund = recorded();
    return ShopifyRefund.parse({
      ...refund,
      order_adjustments: [],
      transactions: refund.transactions.map((t: object) => ({ ...t, test: false, amount: '4.60', currency: 'EUR' })),
      refund_shipping_lines: refund.refund_shipping_lines.map((line: any) => ({
        ...line,
        subtotal_amount_set: { ...line.subtotal_amount_set, presentment_money: { amount: '4.60', currency_code: 'EUR' } },
      })),
    });
  };

  it('a shipping-only refund reverses exactly its shop value, at the rate of refund_shipping_lines[].subtotal_amount_set', () => {
    expect(refundMoney(shippingInEuros())).toEqual({ minor: 500, currency: 'USD' });
  });

  it('the recorded shape, which also keeps the shipping adjustment (kind shipping_refund), gives the same amount (counted once)', () => {
    const refund = recorded();
    const both = ShopifyRefund.parse({
      ...shippingInEuros(),
      order_adjustments: refund.order_adjustments.map((a: any) => ({
        ...a,
        amount_set: { ...a.amount_set, presentment_money: { amount: '-4.60', currency_code: 'EUR' } },
      })),
    });
    expect(refundMoney(both)).toEqual({ minor: 500, currency: 'USD' });
  });
});

describe('parseExactJson', () => {
  it('keeps 64-bit ids exact (plain JSON.parse rounds 820982911946154508)', () => {
    const raw = '{"id":820982911946154508,"order_id": 820982911946154508,"total":"1.00","n":12345678901234567890}';
    expect(parseExactJson(raw)).toEqual({
      id: '820982911946154508',
      order_id: '820982911946154508',
      total: '1.00',
      n: 12345678901234567000,
    });
  });

  it('leaves an id-looking text inside a string alone', () => {
    const raw = JSON.stringify({ note: '"id": 1234567890123456789', id: 5 });
    expect(parseExactJson(raw)).toEqual({ note: '"id": 1234567890123456789', id: 5 });
  });
});
