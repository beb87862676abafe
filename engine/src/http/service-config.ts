import { commitLanesEnv, ConfigError, logLevelEnv, optionalEnv, parseEnv, portEnv, sqliteCacheMbEnv, urlEnv } from '@loyalty-gateway/core';
import { z } from 'zod';

const optional = optionalEnv;
const postgresUrl = urlEnv(['postgres:', 'postgresql:']);

/** The engine service's whole configuration, parsed once from the environment at start. */
export const EngineServiceConfig = z.object({
  ENGINE_PORT: optional(portEnv).default(4000),
  ENGINE_HOST: optional(z.string().min(1)).default('127.0.0.1'),
  ENGINE_DATA_DIR: optional(z.string()).default('./.data-engine'),
  DATABASE_URL: optional(postgresUrl),
  ENGINE_TOKEN: optional(z.string().min(16, { message: 'must be at least 16 characters' })),
  ENGINE_SEED_FILE: optional(z.string()),
  /** PostgreSQL: the group commit's lanes (default 1, see commitLanesEnv). */
  ENGINE_COMMIT_LANES: optional(commitLanesEnv),
  /** SQLite: the page cache of the engine's connection, in MiB (default 4: storage's SQLITE_DEFAULT_CACHE_MB). */
  ENGINE_SQLITE_CACHE_MB: optional(sqliteCacheMbEnv),
  /**
   * `off`: `POST /v1/commands` answers 404 as an engine service without batches would, and the
   * gateway sends every call on its own endpoint (a compatibility check; the benchmark's "before").
   */
  ENGINE_COMMAND_BATCHES: optional(z.enum(['on', 'off'])).default('on'),
  LOG_LEVEL: optional(logLevelEnv).default('info'),
});
export type EngineServiceConfig = z.infer<typeof EngineServiceConfig>;

/** A bad environment or seed file; the message is meant for the operator and names the culprit. */
export class EngineServiceConfigError extends ConfigError {
  override readonly name = 'EngineServiceConfigError';
}

/** Parse the environment once. Throws a ConfigError naming each bad variable. */
export function loadEngineServiceConfig(env: Record<string, string | undefined> = process.env): EngineServiceConfig {
  return parseEnv(EngineServiceConfig, env, 'Invalid engine configuration');
}
