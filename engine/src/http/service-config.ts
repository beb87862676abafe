import { z } from 'zod';

/** Unset and empty variables are the same thing (`DATABASE_URL=` turns PostgreSQL off). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

const port = z.coerce
  .number({ message: 'must be a number' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must be between 0 and 65535' })
  .max(65535, { message: 'must be between 0 and 65535' });

const postgresUrl = z.string().refine((value) => {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, { message: 'must be a URL starting with postgres:// or postgresql://' });

/** The engine service's whole configuration, parsed once from the environment at start. */
export const EngineServiceConfig = z.object({
  ENGINE_PORT: optional(port).default(4000),
  ENGINE_HOST: optional(z.string().min(1)).default('127.0.0.1'),
  ENGINE_DATA_DIR: optional(z.string()).default('./.data-engine'),
  DATABASE_URL: optional(postgresUrl),
  ENGINE_TOKEN: optional(z.string().min(16, { message: 'must be at least 16 characters' })),
  ENGINE_SEED_FILE: optional(z.string()),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
});
export type EngineServiceConfig = z.infer<typeof EngineServiceConfig>;

/** A bad environment or seed file; the message is meant for the operator and names the culprit. */
export class EngineServiceConfigError extends Error {
  override readonly name = 'EngineServiceConfigError';
}

/** Parse the environment once. Throws EngineServiceConfigError naming each bad variable. */
export function loadEngineServiceConfig(env: Record<string, string | undefined> = process.env): EngineServiceConfig {
  const result = EngineServiceConfig.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${String(issue.path[0] ?? '(environment)')}: ${issue.message}`);
  throw new EngineServiceConfigError(`Invalid engine configuration:\n${lines.join('\n')}`);
}
