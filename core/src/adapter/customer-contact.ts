import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { isStorableText, type CustomerIdentifier } from '../schemas/common.js';

/** The partner API's customer value limit. */
const MAX = 255;
/** One address: something@something, no spaces, no control characters. */
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;
const COUNTRY = /^[A-Z]{2}$/;
const EXTENSION = /\s*(?:ext\.?|x|#)\s*\d{1,6}$/iu;

/**
 * A customer's email as a vendor gave it, usable as the envelope's `email` identifier: trimmed,
 * one address, storable as sent, at most 255 characters; otherwise null (the next contact, or a
 * walk-in). Never altered into another text: a mangled email would match nobody, or someone else.
 */
export function vendorEmail(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  return value.length <= MAX && isStorableText(value) && EMAIL.test(value) ? value : null;
}

/**
 * A customer's phone as a vendor gave it (free text: "(212) 555-4240", "07700 900123",
 * "+1-212-555-4240"), as the partner API wants it: E.164 (`+12125554240`) when the number carries
 * its country code (a leading `+`) or `country` names the country it was written in (the order's
 * billing or location country, ISO 3166-1 alpha-2), read with libphonenumber-js. Without either it
 * is sent as its national digits, which the engine completes with the merchant's default country.
 * Null when it cannot be a phone number (letters, too few or too many digits).
 */
export function vendorPhone(raw: unknown, country?: string | null): string | null {
  if (typeof raw !== 'string') return null;
  // An extension ("x12", "ext. 12") is not part of the number a member is found by.
  const value = raw.trim().replace(EXTENSION, '');
  if (value.length === 0 || value.length > 64 || !isStorableText(value) || /\p{L}/u.test(value)) return null;
  const region = country?.trim().toUpperCase();
  const known = region && COUNTRY.test(region) ? (region as CountryCode) : undefined;
  if (value.startsWith('+') || known) {
    const parsed = parsePhoneNumberFromString(value, known);
    return parsed?.isPossible() ? parsed.number : null;
  }
  // No country to read it with: a national number's digits (a leading trunk 0 kept: the engine drops it).
  const digits = value.replace(/\D/g, '');
  return digits.length >= 6 && digits.length <= 15 ? digits : null;
}

/**
 * The envelope's customer from a vendor's contacts: the first usable email, else the first usable
 * phone (read in `country`), else undefined (a walk-in). Whatever a vendor puts in these fields
 * costs at most that identifier, never the sale: the canonical schema refuses an unusable value,
 * and a featured door answers an adapter's refused envelope 500.
 */
export function vendorCustomer(contacts: {
  emails?: ReadonlyArray<unknown>;
  phones?: ReadonlyArray<unknown>;
  country?: string | null | undefined;
}): CustomerIdentifier | undefined {
  for (const candidate of contacts.emails ?? []) {
    const email = vendorEmail(candidate);
    if (email) return { type: 'email', value: email };
  }
  for (const candidate of contacts.phones ?? []) {
    const phone = vendorPhone(candidate, contacts.country);
    if (phone) return { type: 'phone', value: phone };
  }
  return undefined;
}
