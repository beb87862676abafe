import { describe, expect, it } from 'vitest';
import { toCustomer } from './customer.js';
import { parseQuantity, toChannel, toDiscountCode, toItem } from './map-lines.js';
import type { SquareLineItem } from './native.js';
import { currencyExponent, squareAmountToDecimal, squareMoney } from './square-money.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });

describe('Square money (integer smallest units → canonical decimal)', () => {
  it('converts cents exactly', () => {
    expect(squareAmountToDecimal(1999, 'USD')).toBe(19.99);
    expect(squareAmountToDecimal(7, 'USD')).toBe(0.07);
    expect(squareAmountToDecimal(6176, 'GBP')).toBe(61.76);
    expect(squareAmountToDecimal(0, 'USD')).toBe(0);
  });

  it('keeps whole yen whole (JPY has no minor unit)', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(squareAmountToDecimal(1000, 'JPY')).toBe(1000);
  });

  it('refuses three-decimal currencies and non-integers', () => {
    expect(squareAmountToDecimal(1000, 'KWD')).toBeNull();
    expect(squareAmountToDecimal(19.99, 'USD')).toBeNull();
    expect(squareMoney({ amount: 100 })).toBeNull();
    expect(squareMoney(null)).toBeNull();
  });
});

describe('quantity strings', () => {
  it('turns whole decimal strings into integers', () => {
    expect(parseQuantity('2')).toEqual({ kind: 'whole', count: 2 });
    expect(parseQuantity('2.000')).toEqual({ kind: 'whole', count: 2 });
    expect(parseQuantity(' 12 ')).toEqual({ kind: 'whole', count: 12 });
  });

  it('flags fractional quantities and refuses zero or garbage', () => {
    expect(parseQuantity('1.25')).toEqual({ kind: 'fractional' });
    expect(parseQuantity('0.5')).toEqual({ kind: 'fractional' });
    expect(parseQuantity('0')).toEqual({ kind: 'none' });
    expect(parseQuantity('-1')).toEqual({ kind: 'none' });
    expect(parseQuantity('two')).toEqual({ kind: 'none' });
  });
});

describe('order lines → items', () => {
  const line = (over: Partial<SquareLineItem>): SquareLineItem => ({ name: 'Latte', quantity: '1', base_price_money: usd(450), ...over });

  it('uses base_price_money as the unit price and the variation id as the item id', () => {
    expect(
      toItem(line({ quantity: '3', catalog_object_id: 'JE6VHPSRQL6IWSN26C36CJ7W', variation_name: 'Large', base_price_money: usd(1999) })),
    ).toEqual({
      id: 'JE6VHPSRQL6IWSN26C36CJ7W',
      name: 'Latte (Large)',
      quantity: 3,
      unitPrice: 19.99,
    });
    expect(toItem(line({ base_price_money: usd(7) }))).toEqual({ name: 'Latte', quantity: 1, unitPrice: 0.07 });
  });

  it('makes a weighed line one unit priced at the line total', () => {
    expect(toItem(line({ name: 'Coffee beans', quantity: '1.250', base_price_money: usd(2000), gross_sales_money: usd(2500) }))).toEqual({
      name: 'Coffee beans',
      quantity: 1,
      unitPrice: 25,
    });
  });

  it('leaves out free lines and lines without a usable quantity', () => {
    expect(toItem(line({ base_price_money: usd(0) }))).toBeNull();
    expect(toItem(line({ base_price_money: null }))).toBeNull();
    expect(toItem(line({ quantity: '0' }))).toBeNull();
    expect(toItem(line({ quantity: '0.5', gross_sales_money: usd(0) }))).toBeNull();
  });

  it('names a nameless custom amount line', () => {
    expect(toItem(line({ name: null, item_type: 'CUSTOM_AMOUNT', base_price_money: usd(500) }))).toEqual({
      name: 'Custom amount',
      quantity: 1,
      unitPrice: 5,
    });
  });
});

describe('discounts and channel', () => {
  it('reports each applied discount by name with amount and type', () => {
    expect(toDiscountCode({ uid: 'u1', name: 'LOYAL-5OFF', type: 'FIXED_AMOUNT', applied_money: usd(500) })).toEqual({
      code: 'LOYAL-5OFF',
      amount: 5,
      type: 'fixed_amount',
    });
    expect(toDiscountCode({ uid: 'u2', name: 'Labor Day Sale', type: 'VARIABLE_PERCENTAGE', applied_money: usd(303) })).toEqual({
      code: 'Labor Day Sale',
      amount: 3.03,
      type: 'percentage',
    });
    expect(toDiscountCode({ uid: 'u3', catalog_object_id: 'DB7L55ZH2BGWI4H23ULIWOQ7' })).toEqual({ code: 'DB7L55ZH2BGWI4H23ULIWOQ7' });
    expect(toDiscountCode({})).toBeNull();
  });

  it("uses the order's source name as channel, else pos", () => {
    expect(toChannel('Square Online')).toBe('Square Online');
    expect(toChannel(null)).toBe('pos');
    expect(toChannel('x'.repeat(80))).toHaveLength(50);
  });
});

describe('customer', () => {
  it("reads the profile's phone in its address's country (E.164), else sends national digits for the merchant's default", () => {
    // customer-retrieve.json: phone "1-212-555-4240", address country US (Square's documented profile).
    expect(toCustomer(null, { phone_number: '1-212-555-4240', address: { country: 'US' } })).toEqual({
      type: 'phone',
      value: '+12125554240',
    });
    expect(toCustomer(null, { phone_number: '(206) 222-3456', address: { country: 'US' } })).toEqual({
      type: 'phone',
      value: '+12062223456',
    });
    expect(toCustomer(null, { phone_number: '07700 900123', address: { country: 'GB' } })).toEqual({
      type: 'phone',
      value: '+447700900123',
    });
    expect(toCustomer(null, { phone_number: '+44 7700 900123', address: { country: 'US' } })).toEqual({
      type: 'phone',
      value: '+447700900123',
    });
    expect(toCustomer(null, { phone_number: '(212) 555-4240' })).toEqual({ type: 'phone', value: '2125554240' });
    expect(toCustomer(null, { phone_number: '1-212-555-4240', address: { country: null } })).toEqual({
      type: 'phone',
      value: '12125554240',
    });
    expect(toCustomer(null, { phone_number: '555' })).toBeUndefined();
    expect(toCustomer(null, { phone_number: 'call me' })).toBeUndefined();
  });

  it('prefers the buyer email, then the profile email, then the profile phone, else walk-in', () => {
    const profile = { email_address: 'test.buyer@example.com', phone_number: '+1-212-555-4240' };
    expect(toCustomer('receipt@example.com', profile)).toEqual({ type: 'email', value: 'receipt@example.com' });
    expect(toCustomer(null, profile)).toEqual({ type: 'email', value: 'test.buyer@example.com' });
    expect(toCustomer(' ', { phone_number: '+1-212-555-4240' })).toEqual({ type: 'phone', value: '+12125554240' });
    expect(toCustomer(null, { email_address: 'not-an-email' })).toBeUndefined();
    expect(toCustomer(null, null)).toBeUndefined();
  });
});
