import { describe, expect, it } from 'vitest';
import { needsContactLookup, toCustomer } from './map-customer.js';
import { toDiscountCode, toDiscountCodes } from './map-discounts.js';
import { CloverCustomer, type CloverOrder } from './native.js';

describe('customer: email first, else phone, else walk-in', () => {
  it('prefers the primary email', () => {
    expect(
      toCustomer({
        emailAddresses: { elements: [{ emailAddress: 'other@example.com' }, { emailAddress: 'main@example.com', primaryEmail: true }] },
        phoneNumbers: { elements: [{ phoneNumber: '+1 555 010 0100' }] },
      }),
    ).toEqual({ type: 'email', value: 'main@example.com' });
  });

  it('falls back to the phone, then to nothing', () => {
    expect(
      toCustomer({
        emailAddresses: { elements: [{ emailAddress: 'not-an-email' }] },
        phoneNumbers: { elements: [{ phoneNumber: '(555) 010-0142' }] },
      }),
    ).toEqual({ type: 'phone', value: '5550100142' });
    expect(toCustomer({ id: 'C1', phoneNumbers: { elements: [{ phoneNumber: '12' }] } })).toBeUndefined();
    expect(toCustomer(undefined)).toBeUndefined();
  });

  it('an email the canonical schema would refuse (a NUL, two addresses) is skipped for the next contact (it was sent: the door answered 500)', () => {
    expect(
      toCustomer({
        emailAddresses: {
          elements: [{ emailAddress: 'jane\u0000@example.com', primaryEmail: true }, { emailAddress: 'a@example.com b@example.com' }],
        },
        phoneNumbers: { elements: [{ phoneNumber: '555.010.0199' }] },
      }),
    ).toEqual({ type: 'phone', value: '5550100199' });
  });

  it('phones through core: E.164 when written with their + country code, else national digits (Clover gives no order country)', () => {
    const phone = (phoneNumber: string) => toCustomer({ phoneNumbers: { elements: [{ phoneNumber }] } });
    expect(phone('+44 20 7946 0958')).toEqual({ type: 'phone', value: '+442079460958' });
    expect(phone('1 (555) 010-0199')).toEqual({ type: 'phone', value: '15550100199' });
    expect(phone('555.010.0199 ext. 12')).toEqual({ type: 'phone', value: '5550100199' });
    expect(phone('call me')).toBeUndefined();
  });

  it('contacts of another type cost the customer, never the sale: the customer still parses, its usable contact is read', () => {
    // A customer answer with a string primaryEmail or a phone list that is no list was unreadable before: 503 on every redelivery.
    const answer = CloverCustomer.parse({
      id: 'CUSTVJT2ABCRS',
      emailAddresses: { elements: [{ emailAddress: 42, primaryEmail: 'yes' }, { emailAddress: 'jane.doe@example.com' }] },
      phoneNumbers: 'none',
    });
    expect(toCustomer(answer)).toEqual({ type: 'email', value: 'jane.doe@example.com' });
    expect(
      toCustomer(CloverCustomer.parse({ id: 'C1', emailAddresses: [1, 2], phoneNumbers: { elements: [{ phoneNumber: {} }] } })),
    ).toBeUndefined();
  });

  it('asks for a contact lookup only when a customer id comes without contacts', () => {
    expect(needsContactLookup({ id: 'C1' })).toBe(true);
    expect(needsContactLookup({ id: 'C1', emailAddresses: { elements: [{ emailAddress: 'a@example.com' }] } })).toBe(false);
    expect(needsContactLookup({})).toBe(false);
    expect(needsContactLookup(undefined)).toBe(false);
  });
});

describe('discount codes', () => {
  it('maps fixed (negative cents) and percentage discounts, order-level then line-level', () => {
    const order: CloverOrder = {
      id: 'O1',
      discounts: { elements: [{ name: 'LOYAL-5OFF', amount: -500 }, { name: 'Happy Hour', percentage: 10 }, { name: '  ' }] },
      lineItems: { elements: [{ name: 'Latte', price: 450, discounts: { elements: [{ name: 'RWD-FREECOFFEE', amount: -450 }] } }] },
    };
    expect(toDiscountCodes(order)).toEqual([
      { code: 'LOYAL-5OFF', amount: 5, type: 'fixed_amount' },
      { code: 'Happy Hour', type: 'percentage' },
      { code: 'RWD-FREECOFFEE', amount: 4.5, type: 'fixed_amount' },
    ]);
  });

  it('keeps a code whose amount is unknown, without an amount', () => {
    expect(toDiscountCode({ name: 'Odd', amount: -0.5 })).toEqual({ code: 'Odd', type: 'fixed_amount' });
    expect(toDiscountCode({ name: 'Manual' })).toEqual({ code: 'Manual' });
  });
});
