import { GatewayError } from '@loyalty-gateway/core';
import type { Tx } from '../engine/context.js';

/** The prefix reward codes carry (`LOYAL-7QX2`) when neither the seed nor the options set one. */
export const DEFAULT_CODE_PREFIX = 'LOYAL';

/** Prefixes compare as codes do on sales: case-insensitively. */
export const samePrefix = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

/**
 * The prefix a seed stands for: its `codePrefix`, or the documented default when it issues codes
 * without one. A seed with neither (the development demo) has no prefix of its own and keeps the
 * engine's.
 */
export function declaredPrefix(seed: { codePrefix?: string | undefined; merchants: Array<{ issuedCodes: unknown[] }> }): string | undefined {
  if (seed.codePrefix !== undefined) return seed.codePrefix;
  return seed.merchants.some((m) => m.issuedCodes.length > 0) ? DEFAULT_CODE_PREFIX : undefined;
}

function conflict(declared: string, explicit: boolean, established: string): GatewayError {
  const wanted = explicit ? `codePrefix "${declared}"` : `codePrefix is not set, so its issued codes use the default "${declared}", which`;
  const message =
    `${wanted} conflicts with the reward-code prefix "${established}" this loyalty engine already uses: ` +
    `changing it would stop every code issued as "${established}-…" from matching. ` +
    `Set "codePrefix": "${established}" and issue "${established}-" codes, or start on an empty database.`;
  return new GatewayError('validation_failed', { message, fields: [{ path: 'codePrefix', message }] });
}

async function stored(trx: Tx): Promise<string | undefined> {
  return (await trx.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirst())?.value;
}

async function holdsIssuedCodes(trx: Tx): Promise<boolean> {
  return (await trx.selectFrom('reward_instances').select('id').where('origin', '=', 'issued_code').limit(1).executeTakeFirst()) !== undefined;
}

export interface PrefixView {
  /** The prefix the engine uses now (its option, or the stored one, or the default). */
  current: string;
  /** The prefix the engine would use after this seed (an engine option pins it). */
  after: string;
}

/**
 * Make `declared` the engine's reward-code prefix, inside the seed's transaction, or refuse.
 * The first seed that stands for a prefix establishes it (stored in `engine_settings`); a later
 * one with another prefix is refused, since codes already issued would stop matching. Where no
 * prefix was ever stored (data from before prefixes were stored) but codes exist, the engine's
 * current prefix counts as established. Returns the established prefix (its stored spelling).
 */
export async function establishPrefix(trx: Tx, declared: string, explicit: boolean, view: PrefixView): Promise<string> {
  if (!samePrefix(view.after, declared)) throw conflict(declared, explicit, view.after);
  let established = await stored(trx);
  if (established === undefined) {
    if (!samePrefix(view.current, declared) && (await holdsIssuedCodes(trx))) throw conflict(declared, explicit, view.current);
    await trx.insertInto('engine_settings').values({ key: 'code_prefix', value: declared }).onConflict((oc) => oc.column('key').doNothing()).execute();
    // Another process starting at the same moment may have stored its own first.
    established = (await stored(trx)) ?? declared;
  }
  if (!samePrefix(established, declared)) throw conflict(declared, explicit, established);
  return established;
}
