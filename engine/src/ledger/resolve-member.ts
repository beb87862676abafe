import type { CustomerIdentifier } from '@loyalty-gateway/core';
import { preparedQuery } from '@loyalty-gateway/storage';
import { normalizeEmail, normalizePhone } from '../rules/phone.js';
import type { EngineContext } from './context.js';
import type { MerchantSettings } from './settings-cache.js';
import { WALLET } from './balances.js';

export interface ResolvedMember {
  id: string;
  membershipId: string;
  balance: number;
  lifetimePoints: number;
}

export type Resolution = { member: ResolvedMember; reason: null } | { member: null; reason: string };

export type LookupColumn = 'phone' | 'email' | 'membership_id' | 'external_id';

/** The indexed column and normalised value a customer identifier is looked up by (null: cannot match). */
export function lookupKey(customer: CustomerIdentifier, defaultCountryCode: string): { column: LookupColumn; value: string | null } {
  switch (customer.type) {
    case 'phone':
      return { column: 'phone', value: normalizePhone(customer.value, defaultCountryCode) };
    case 'email':
      return { column: 'email', value: normalizeEmail(customer.value) || null };
    case 'membershipId':
      return { column: 'membership_id', value: customer.value };
    case 'externalId':
      return { column: 'external_id', value: customer.value };
  }
}

/** Why a customer did not resolve, for a cashier or a support log; emails are never echoed. */
export function notFound(customer: CustomerIdentifier, normalized: string | null, defaultCountryCode: string): string {
  if (customer.type === 'phone' && normalized === null) {
    return `Customer not found: phone "${customer.value}" is not a valid phone number (send E.164 with the leading +, or a local number).`;
  }
  if (customer.type === 'phone' && !customer.value.trim().startsWith('+')) {
    // Read as local (the merchant's country code put in front); if the caller meant it as
    // international without the +, say what it became and what to send.
    const digits = customer.value.replace(/\D/g, '');
    const intended = digits.startsWith(defaultCountryCode) ? ` If it includes the country code, send it as +${digits}.` : '';
    return `Customer not found: phone "${customer.value}" has no leading +, so it was read as a local number (${normalized}).${intended}`;
  }
  if (customer.type === 'email') return 'Customer not found: no member with this email address.';
  return `Customer not found: no member with ${customer.type} ${normalized}.`;
}

interface MemberRow {
  id: string;
  membership_id: string;
  balance: number | string;
  lifetime_points: number | string;
}

/**
 * One prepared lookup per identifier column (every sale runs one of these). No LIMIT: each
 * (merchant_id, column) pair is a unique index, so at most one row comes back, and a bound
 * `LIMIT ?` made SQLite's lookup three times slower (14.9 vs 4.6 µs measured).
 */
const LOOKUPS = Object.fromEntries(
  (['phone', 'email', 'membership_id', 'external_id'] as const).map((column) => [
    column,
    preparedQuery((db, v: { merchantId: string; value: string }) =>
      db
        .selectFrom('members')
        .innerJoin('balances', (join) => join.onRef('balances.member_id', '=', 'members.id').on('balances.reward_id', '=', WALLET))
        .select(['members.id', 'members.membership_id', 'balances.balance', 'balances.lifetime_points'])
        .where('members.merchant_id', '=', v.merchantId)
        .where(`members.${column}`, '=', v.value),
    ),
  ]),
) as Record<LookupColumn, (db: EngineContext['db'], v: { merchantId: string; value: string }) => Promise<{ rows: MemberRow[] }>>;

/**
 * Find the member a customer identifier names, with the wallet, in one indexed query, on `db`
 * (the engine's database, or the transaction an event runs in).
 */
export async function resolveMember(
  db: EngineContext['db'],
  merchant: MerchantSettings,
  customer: CustomerIdentifier | undefined,
): Promise<Resolution> {
  if (!customer) return { member: null, reason: 'Walk-in sale: no customer on the sale.' };
  const { column, value } = lookupKey(customer, merchant.defaultCountryCode);
  if (value === null) return { member: null, reason: notFound(customer, null, merchant.defaultCountryCode) };
  const row = (await LOOKUPS[column](db, { merchantId: merchant.id, value })).rows[0];
  if (!row) return { member: null, reason: notFound(customer, value, merchant.defaultCountryCode) };
  return {
    member: { id: row.id, membershipId: row.membership_id, balance: Number(row.balance), lifetimePoints: Number(row.lifetime_points) },
    reason: null,
  };
}
