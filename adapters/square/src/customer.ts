import { vendorCustomer, type CustomerIdentifier } from '@loyalty-gateway/core';
import type { SquareCustomer } from './native.js';

/**
 * The sale's customer: the payment's `buyer_email_address`, else the profile's email, else the
 * profile's phone, else none (a walk-in), each through core's vendorCustomer (an unusable value
 * costs that identifier, never the sale). Square stores phones as typed ("1-212-555-4240",
 * "(206) 222-3456", "+1-212-555-4240"); they are read in the profile address's country when it
 * has one, else sent as national digits for the engine's merchant default. The location's country
 * (Locations API) would need MERCHANT_PROFILE_READ, a permission the connection does not ask for.
 */
export function toCustomer(buyerEmail: string | null | undefined, customer: SquareCustomer | null): CustomerIdentifier | undefined {
  return vendorCustomer({
    emails: [buyerEmail, customer?.email_address],
    phones: [customer?.phone_number],
    country: customer?.address?.country,
  });
}
