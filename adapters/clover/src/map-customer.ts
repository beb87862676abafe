import type { CustomerIdentifier } from '@loyalty-gateway/core';
import type { CloverCustomer } from './native.js';

/**
 * A Clover phone number as the spec wants it: E.164 with the plus, or a bare local number, never a
 * country code without the plus. Clover stores what the cashier typed, free text.
 * Uncertain (isolated here): an 11-digit number starting with 1 is read as NANP with its country
 * code (Clover is North-American first) and given the plus; anything else without a plus is sent
 * as bare local digits. Fewer than 5 digits is not a phone number.
 */
export function normalisePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 5 || digits.length > 15) return null;
  if (raw.trim().startsWith('+')) return `+${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return digits;
}

function firstEmail(customer: CloverCustomer): string | null {
  const emails = customer.emailAddresses?.elements ?? [];
  const ordered = [...emails.filter((e) => e.primaryEmail === true), ...emails.filter((e) => e.primaryEmail !== true)];
  for (const entry of ordered) {
    const value = entry.emailAddress?.trim();
    if (value && value.includes('@') && value.length <= 255) return value;
  }
  return null;
}

/** The order's first customer: email preferred, else phone, else none (walk-in). */
export function toCustomer(customer: CloverCustomer | null | undefined): CustomerIdentifier | undefined {
  if (!customer) return undefined;
  const email = firstEmail(customer);
  if (email) return { type: 'email', value: email };
  for (const entry of customer.phoneNumbers?.elements ?? []) {
    const phone = normalisePhone(entry.phoneNumber);
    if (phone) return { type: 'phone', value: phone };
  }
  return undefined;
}

/** True when the order names a customer but the expansion did not include any contact. */
export function needsContactLookup(customer: CloverCustomer | null | undefined): customer is CloverCustomer & { id: string } {
  if (!customer?.id) return false;
  const emails = customer.emailAddresses?.elements?.length ?? 0;
  const phones = customer.phoneNumbers?.elements?.length ?? 0;
  return emails + phones === 0;
}
