import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CustomerIdentifier } from '../schemas/common.js';
import { vendorCustomer, vendorEmail, vendorPhone } from './customer-contact.js';

describe('vendorPhone', () => {
  it('writes a national number in E.164 with the country it was written in', () => {
    expect(vendorPhone('(212) 555-4240', 'US')).toBe('+12125554240');
    expect(vendorPhone('07700 900123', 'GB')).toBe('+447700900123');
    expect(vendorPhone('06 12 34 56 78', 'fr')).toBe('+33612345678');
    expect(vendorPhone('1-212-555-4240', 'US')).toBe('+12125554240');
    expect(vendorPhone('555-010-1234 ext. 12', 'US')).toBe('+15550101234');
  });

  it('keeps a number written with its country code, whatever the country given', () => {
    expect(vendorPhone('+1-212-555-4240')).toBe('+12125554240');
    expect(vendorPhone('+44 7700 900123', 'US')).toBe('+447700900123');
  });

  it('without a country, sends the national digits (the engine completes them with the merchant default)', () => {
    expect(vendorPhone('(212) 555-4240')).toBe('2125554240');
    expect(vendorPhone('07700 900123', null)).toBe('07700900123');
    expect(vendorPhone('07700 900123', 'not a country')).toBe('07700900123');
  });

  it('is null for what cannot be a phone number', () => {
    for (const raw of ['', '   ', '555-555-SHIP', '12345', '+1', 'call me', 'a\u0000b', '\ud800123456', '1'.repeat(80), 42, null]) {
      expect(vendorPhone(raw, 'US')).toBeNull();
      expect(vendorPhone(raw)).toBeNull();
    }
  });
});

describe('vendorEmail', () => {
  it('trims one address and refuses anything else, never altering it', () => {
    expect(vendorEmail('  jane.doe@example.com ')).toBe('jane.doe@example.com');
    for (const raw of [
      '',
      'jane',
      'a b@example.com',
      'a@b@c',
      'jane\u0000@example.com',
      'ja\ud800ne@example.com',
      `${'a'.repeat(250)}@example.com`,
      7,
    ]) {
      expect(vendorEmail(raw)).toBeNull();
    }
  });
});

describe('vendorCustomer', () => {
  it('prefers the first usable email, then the first usable phone read in the country, else a walk-in', () => {
    expect(vendorCustomer({ emails: ['nope', 'ann@example.com'], phones: ['(212) 555-4240'], country: 'US' })).toEqual({
      type: 'email',
      value: 'ann@example.com',
    });
    expect(vendorCustomer({ emails: [null, 'x'], phones: ['SHIP', '(212) 555-4240'], country: 'US' })).toEqual({
      type: 'phone',
      value: '+12125554240',
    });
    expect(vendorCustomer({ emails: [''], phones: [''] })).toBeUndefined();
  });

  it('whatever text a vendor sends, the identifier is one the canonical schema accepts, or none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant('a\u0000@b.c'))),
        fc.array(fc.oneof(fc.string(), fc.stringMatching(/^\+?[\d\s().-]{0,30}$/))),
        fc.option(fc.oneof(fc.constantFrom('US', 'GB', 'DE', 'XX'), fc.string())),
        (emails, phones, country) => {
          const customer = vendorCustomer({ emails, phones, country });
          if (customer !== undefined) expect(CustomerIdentifier.safeParse(customer).success).toBe(true);
        },
      ),
      { seed: 34, numRuns: 500 },
    );
  });
});
