import { vendorCustomer, type CustomerIdentifier } from '@loyalty-gateway/core';
import type { ShopifyOrder } from './native.js';

/**
 * The order's customer through core's vendorCustomer (never a value the canonical schema refuses):
 * the first usable email of `email`, `contact_email`, `customer.email`, else the first usable phone
 * of `phone`, `customer.phone` (Shopify stores both in E.164; anything else is read in the country
 * of the billing address, else the shipping address), else undefined (a guest without contact
 * details). Address phones are free text ("555-555-5555" in Shopify's own examples) and never read.
 */
export function customerOf(order: ShopifyOrder): CustomerIdentifier | undefined {
  return vendorCustomer({
    emails: [order.email, order.contact_email, order.customer?.email],
    phones: [order.phone, order.customer?.phone],
    country: countryOf(order.billing_address?.country_code) ?? countryOf(order.shipping_address?.country_code),
  });
}

const countryOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
