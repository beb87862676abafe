import { vendorCustomer, type CustomerIdentifier } from '@loyalty-gateway/core';
import type { CloverCustomer } from './native.js';

/**
 * The order's first customer through core's vendorCustomer: the first usable email (primary ones
 * first), else the first usable phone, else none (a walk-in). Clover stores what the cashier typed
 * (free text, no documented format) and gives an order no address or country: a number written
 * with its `+` country code becomes E.164, any other is sent as its national digits, which the
 * engine completes with the merchant's default country. (The merchant's own country is one more
 * call, `GET /v3/merchants/{mId}?expand=address`, that the adapter does not make.)
 */
export function toCustomer(customer: CloverCustomer | null | undefined): CustomerIdentifier | undefined {
  if (!customer) return undefined;
  const emails = customer.emailAddresses?.elements ?? [];
  const primaryFirst = [...emails.filter((e) => e.primaryEmail === true), ...emails.filter((e) => e.primaryEmail !== true)];
  return vendorCustomer({
    emails: primaryFirst.map((e) => e.emailAddress),
    phones: (customer.phoneNumbers?.elements ?? []).map((p) => p.phoneNumber),
  });
}

/** True when the order names a customer but the expansion did not include any contact. */
export function needsContactLookup(customer: CloverCustomer | null | undefined): customer is CloverCustomer & { id: string } {
  if (!customer?.id) return false;
  const emails = customer.emailAddresses?.elements?.length ?? 0;
  const phones = customer.phoneNumbers?.elements?.length ?? 0;
  return emails + phones === 0;
}
