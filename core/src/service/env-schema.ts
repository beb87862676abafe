import { z } from 'zod';

/** An environment variable that may be unset; empty or blank counts as unset (`DATABASE_URL=`). */
export const optionalEnv = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

/** A whole number from the environment (`'30'` → 30), its messages naming the unit when given ("must be a whole number of days"). */
export const wholeNumberEnv = (unit?: string) =>
  z.coerce.number({ message: 'must be a number' }).int({ message: unit ? `must be a whole number of ${unit}` : 'must be a whole number' });

export const portEnv = z.coerce
  .number({ message: 'must be a number' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must be between 0 and 65535' })
  .max(65535, { message: 'must be between 0 and 65535' });

/** A URL whose scheme is one of `protocols` (e.g. `['postgres:', 'postgresql:']`). */
export const urlEnv = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/**
 * The group commit's lanes on PostgreSQL (GATEWAY_COMMIT_LANES in the gateway, ENGINE_COMMIT_LANES
 * in the engine service): each holds one of the pool's 10 connections while it runs a batch, and
 * the others serve redemptions, refunds and reads, so at most 8.
 */
export const commitLanesEnv = wholeNumberEnv()
  .min(1, { message: 'must be at least 1' })
  .max(8, { message: "must be at most 8 (each lane holds one of the pool's 10 connections)" });

/**
 * SQLite's page cache per connection, in MiB (GATEWAY_SQLITE_CACHE_MB, ENGINE_SQLITE_CACHE_MB).
 * better-sqlite3 builds SQLite with 16 MiB per connection, which the gateway's three connections
 * fill under load; pages it does not hold are read again from the operating system's file cache.
 */
export const sqliteCacheMbEnv = wholeNumberEnv('MiB')
  .min(1, { message: 'must be at least 1 (MiB)' })
  .max(1_024, { message: 'must be at most 1024 (MiB)' });

export const logLevelEnv = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** A bad environment (or start-up file): the message is for the operator and names each culprit. */
export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
}

/** Parse the environment once with one schema; every faulty variable is named in one message. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  title = 'Invalid configuration',
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${String(issue.path[0] ?? '(environment)')}: ${issue.message}`);
  throw new ConfigError(`${title}:\n${lines.join('\n')}`);
}
