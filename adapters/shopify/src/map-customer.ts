import type { CustomerIdentifier } from '@loyalty-gateway/core';
import type { ShopifyOrder } from './native.js';

const E164 = /^\+[1-9]\d{6,14}$/;

const firstText = (...values: Array<string | null | undefined>): string | null => {
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length <= 255) return trimmed;
  }
  return null;
};

/**
 * A phone in E.164 or null. Shopify stores order and customer phones in E.164 already; anything
 * else (an address book number like "555-555-SHIP", or digits without the plus, which the spec
 * forbids when they carry a country code) is not sent, because we cannot tell which it is.
 */
export function toE164(phone: string | null | undefined): string | null {
  const compact = phone?.replace(/[\s().-]/g, '') ?? '';
  return E164.test(compact) ? compact : null;
}

/** Prefer the email, else an E.164 phone, else undefined (a guest without contact details). */
export function customerOf(order: ShopifyOrder): CustomerIdentifier | undefined {
  const email = firstText(order.email, order.contact_email, order.customer?.email);
  if (email) return { type: 'email', value: email };
  const phone = toE164(order.phone) ?? toE164(order.customer?.phone);
  return phone ? { type: 'phone', value: phone } : undefined;
}
