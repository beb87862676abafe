import { z } from 'zod';

/** ES2024's String method (Node 20 has it; the project's TypeScript lib is ES2023). */
type WellFormed = string & { isWellFormed(): boolean };

/**
 * Text a database stores as sent: no NUL character (PostgreSQL's text refuses it, SQLite keeps
 * it) and no unpaired UTF-16 surrogate (valid in JSON, but stored as U+FFFD by both drivers, so
 * two different ids would become one). Both are valid JSON escapes, never a real id or name.
 */
const storable = (value: string): boolean => (value as WellFormed).isWellFormed() && !value.includes('\0');

/** A required string of at most `max` characters, storable as sent. */
export const text = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine(storable, { message: 'must not contain NUL characters or unpaired surrogates' });

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
