import type { CustomerIdentifier } from '@loyalty-gateway/core';
import type { SquareCustomer } from './native.js';

/**
 * Square stores phone numbers as typed ("+1-212-555-4240", "(212) 555-4240", "1-212-555-4240").
 * The spec accepts E.164 with '+', or a bare local number, and forbids a country code without
 * the '+'. Uncertain: without '+', "1-212-555-4240" (country code) and "212-555-4240" (local)
 * look alike, so:
 * - leading '+': '+' and 8–15 digits (E.164);
 * - leading trunk '0' (national format, e.g. UK "07700 900123"): the digits, as a local number;
 * - otherwise at most 10 digits: a local number; longer: ambiguous, omitted (walk-in).
 */
export function toPhone(raw: string | null | undefined): string | null {
  const value = raw?.trim();
  if (!value) return null;
  const digits = value.replace(/\D/g, '');
  if (value.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length < 6) return null;
  if (digits.startsWith('0')) return digits.length <= 12 ? digits : null;
  return digits.length <= 10 ? digits : null;
}

const looksLikeEmail = (value: string): boolean => /^[^\s@]+@[^\s@]+$/.test(value);

/**
 * Prefer an email (the payment's `buyer_email_address`, then the customer profile's), else the
 * profile's phone, else none (walk-in).
 */
export function toCustomer(buyerEmail: string | null | undefined, customer: SquareCustomer | null): CustomerIdentifier | undefined {
  for (const candidate of [buyerEmail, customer?.email_address]) {
    const email = candidate?.trim();
    if (email && looksLikeEmail(email) && email.length <= 255) return { type: 'email', value: email };
  }
  const phone = toPhone(customer?.phone_number);
  return phone ? { type: 'phone', value: phone } : undefined;
}
