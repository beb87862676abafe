import { z } from 'zod';
import { hiddenCharacterProblem } from './hidden-character.js';

/** ES2024's String methods (Node 20 has them; the project's TypeScript lib is ES2023). */
type WellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Text a database stores as sent: no NUL character (PostgreSQL's text refuses it, SQLite keeps
 * it) and no unpaired UTF-16 surrogate (valid in JSON, but stored as U+FFFD by both drivers, so
 * two different ids would become one). Both are valid JSON escapes, never a real id or name.
 */
export const isStorableText = (value: string): boolean => (value as WellFormed).isWellFormed() && !value.includes('\0');
export const NOT_STORABLE = 'must not contain NUL characters or unpaired surrogates';

/** `value` made storable where it cannot be refused (a record of what arrived): each NUL and unpaired surrogate as U+FFFD. */
export function toStorableText(value: string): string {
  let text = value as WellFormed;
  if (!text.isWellFormed()) text = text.toWellFormed() as WellFormed;
  return text.includes('\0') ? text.replaceAll('\0', '\ufffd') : text;
}

/**
 * Vendor text an adapter puts in an envelope or a catalog item (a name, SKU, discount code,
 * category, customer email): at most `max` characters, cut between two characters (never inside a
 * surrogate pair, which would leave half of it), with each NUL and unpaired surrogate as U+FFFD. A
 * vendor's odd character then costs that character, not the sale: the canonical schema refuses
 * such text, and an adapter's envelope it refuses is answered 500. Not for ids that key the ledger
 * (a transaction or refund id): two different ids must not become one.
 */
export function vendorText(value: string, max = 255): string {
  let clipped = value;
  if (value.length > max) {
    clipped = value.slice(0, max);
    const last = clipped.charCodeAt(max - 1);
    if (last >= 0xd800 && last <= 0xdbff) clipped = clipped.slice(0, -1);
  }
  return toStorableText(clipped);
}

/**
 * Whether a vendor's id can key a row as sent (a catalog item's externalId, a reversal's refund
 * id): 1 to `max` characters, storable. One that cannot is left out, never altered: two ids
 * must not become one.
 */
export const isKeyableId = (value: string, max = 255): boolean => value.length > 0 && value.length <= max && isStorableText(value);

/** Refuses a value holding a bidirectional control or an invisible character, naming it and where it is. */
const noHiddenCharacters = (value: string, ctx: z.RefinementCtx) => {
  const problem = hiddenCharacterProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/**
 * `value` in NFC. ASCII text is already NFC and is returned as it is, without String#normalize:
 * normalising loads ICU's data, 8–9 MiB of resident memory the production start never otherwise
 * pays (docs/benchmarks.md), for ids that are almost all ASCII.
 */
export const toNfc = (value: string): string => (/^[\x00-\x7f]*$/.test(value) ? value : value.normalize('NFC'));

/**
 * An id an operator types to create something (admin API, console, seed file): 1–255 characters,
 * storable, without a bidirectional control or an invisible character (it would show as another
 * id), kept in NFC (a decomposed "é" and a composed one are one id, as a person reads them).
 */
export const operatorId = z
  .string()
  .superRefine(noHiddenCharacters)
  .overwrite(toNfc)
  .min(1)
  .max(255)
  .refine(isStorableText, { message: NOT_STORABLE });
/** A display name an operator types: trimmed, 1–255 characters, storable, the same characters refused and NFC as operatorId. */
export const operatorName = z
  .string()
  .superRefine(noHiddenCharacters)
  .trim()
  .overwrite(toNfc)
  .min(1)
  .max(255)
  .refine(isStorableText, { message: NOT_STORABLE });
/**
 * An id an operator searches for (admin filters, path parameters): 1–255 storable characters,
 * exactly as sent. Vendors' ids are what they are: one holding an invisible character is found too.
 */
export const searchId = z.string().min(1).max(255).refine(isStorableText, { message: NOT_STORABLE });

/** A required string of at most `max` characters, storable as sent. */
export const text = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine(isStorableText, { message: NOT_STORABLE });

/** A required, non-empty string of at most `max` characters (identifiers). */
export const id = (max = 255) => text(max).min(1, { message: 'must not be empty' });

export const DateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

export const CustomerIdentifierType = z.enum(['phone', 'email', 'membershipId', 'externalId']);
export type CustomerIdentifierType = z.infer<typeof CustomerIdentifierType>;

export const CustomerIdentifier = z.strictObject({
  type: CustomerIdentifierType,
  value: id(255),
});
export type CustomerIdentifier = z.infer<typeof CustomerIdentifier>;

/** ISO 4217 code: three letters (the spec allows the field up to 10 characters). */
export const Currency = text(10).regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as USD' });

export const Store = z.strictObject({
  id: id(255),
  /** Display only; the spec gives no maximum (the 1 MiB body bounds it). */
  name: z.string().optional(),
});
export type Store = z.infer<typeof Store>;
