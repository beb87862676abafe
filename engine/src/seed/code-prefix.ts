import { GatewayError } from '@loyalty-gateway/core';
import { sql } from 'kysely';
import type { Tx } from '../ledger/context.js';

/** The prefix reward codes carry (`LOYAL-7QX2`) when neither the seed nor the options set one. */
export const DEFAULT_CODE_PREFIX = 'LOYAL';

/** Prefixes compare as codes do on sales: case-insensitively. */
export const samePrefix = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

/**
 * The prefix a seed stands for: its `codePrefix`, or the documented default when it issues codes
 * without one. A seed with neither (the development demo) has no prefix of its own and keeps the
 * engine's.
 */
export function declaredPrefix(seed: {
  codePrefix?: string | undefined;
  merchants: Array<{ issuedCodes: unknown[] }>;
}): string | undefined {
  if (seed.codePrefix !== undefined) return seed.codePrefix;
  return seed.merchants.some((m) => m.issuedCodes.length > 0) ? DEFAULT_CODE_PREFIX : undefined;
}

/** Issued codes that carry a prefix: how many, and one of them to name. */
interface Carriers {
  count: number;
  example: string;
}

function conflict(
  declared: string,
  explicit: boolean,
  established: string,
  why: string,
  orElse = ', or start on an empty database',
): GatewayError {
  const wanted = explicit ? `codePrefix "${declared}"` : `codePrefix is not set, so its issued codes use the default "${declared}", which`;
  const message =
    `${wanted} conflicts with the reward-code prefix "${established}" ${why}. ` +
    `Set "codePrefix": "${established}" and issue "${established}-" codes${orElse}.`;
  return new GatewayError('validation_failed', { message, fields: [{ path: 'codePrefix', message }] });
}

/** Refusal while issued codes carry the established prefix: it names how many, and one of them. */
function inUse(declared: string, explicit: boolean, established: string, carriers: Carriers): GatewayError {
  const carry = carriers.count === 1 ? '1 issued code carries it' : `${carriers.count} issued codes carry it`;
  return conflict(
    declared,
    explicit,
    established,
    `this loyalty engine already uses: ${carry} (e.g. "${carriers.example}") and would stop matching`,
  );
}

async function stored(trx: Tx): Promise<string | undefined> {
  return (await trx.selectFrom('engine_settings').select('value').where('key', '=', 'code_prefix').executeTakeFirst())?.value;
}

/**
 * The stored prefix, read after locking its row (a no-op update: a row lock on PostgreSQL, the
 * write lock on SQLite), so that a concurrent seed cannot change it, or issue codes under it,
 * between this check and the commit.
 */
async function lockedStored(trx: Tx): Promise<string | undefined> {
  await trx
    .updateTable('engine_settings')
    .set((eb) => ({ value: eb.ref('value') }))
    .where('key', '=', 'code_prefix')
    .execute();
  return stored(trx);
}

/** Issued codes starting with `<prefix>-`, compared as codes on sales are: case-insensitively. */
function carrying(trx: Tx, prefix: string) {
  const start = `${prefix.toUpperCase()}-`;
  return trx
    .selectFrom('reward_instances')
    .where('origin', '=', 'issued_code')
    .where(sql<string>`substr(upper(code), 1, ${sql.lit(start.length)})`, '=', start);
}

/** The issued codes that carry `prefix`, or undefined when none does (the prefix is not in use). */
async function carriersOf(trx: Tx, prefix: string): Promise<Carriers | undefined> {
  const one = await carrying(trx, prefix).select('code').$narrowType<{ code: string }>().limit(1).executeTakeFirst();
  if (one === undefined) return undefined;
  const { n } = await carrying(trx, prefix)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirstOrThrow();
  return { count: Number(n), example: one.code };
}

export interface PrefixView {
  /** The prefix the engine uses now (its option, or the stored one, or the default). */
  current: string;
  /** The prefix the engine would use after this seed (an engine option pins it). */
  after: string;
}

/**
 * Make `declared` the engine's reward-code prefix, inside the seed's transaction, or refuse.
 * A prefix is established only while issued codes carry it (`<prefix>-…`, case-insensitively):
 * those must keep matching, so a seed standing for another prefix is then refused, before
 * anything is written. A stored prefix that no issued code carries (a seed only named it, or the
 * demo of an earlier release stored `DEMO`) is replaced by the declared one. Where no prefix was
 * ever stored (data from before prefixes were stored), the engine's current prefix is the one in
 * use. Returns the prefix in effect after the seed (its stored spelling when unchanged).
 */
export async function establishPrefix(trx: Tx, declared: string, explicit: boolean, view: PrefixView): Promise<string> {
  if (!samePrefix(view.after, declared)) {
    throw conflict(
      declared,
      explicit,
      view.after,
      `this loyalty engine is configured with (its codePrefix option): "${declared}-" codes would never match on sales`,
      '',
    );
  }
  let current = await lockedStored(trx);
  if (current === undefined) {
    const carriers = samePrefix(view.current, declared) ? undefined : await carriersOf(trx, view.current);
    if (carriers) throw inUse(declared, explicit, view.current, carriers);
    await trx
      .insertInto('engine_settings')
      .values({ key: 'code_prefix', value: declared })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    // Another process starting at the same moment may have stored its own first.
    current = (await lockedStored(trx)) ?? declared;
  }
  if (samePrefix(current, declared)) return current;
  const carriers = await carriersOf(trx, current);
  if (carriers) throw inUse(declared, explicit, current, carriers);
  await trx.updateTable('engine_settings').set({ value: declared }).where('key', '=', 'code_prefix').execute();
  return declared;
}
