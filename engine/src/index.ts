export { createDatabase, migrate, ensureSchema, isUniqueViolation, type DatabaseOptions, type SqlDatabase, type SqlDialect } from './db/database.js';
export { testDialects, openTestDatabase } from './db/testing.js';
export { ENGINE_MIGRATION_TABLE, engineMigrations } from './db/migrations/index.js';
export type { EngineTables } from './db/schema.js';
export { EngineSeed, DEFAULT_CODE_PREFIX, type EngineSeedInput } from './seed/engine-seed.js';
export { createEmbeddedEngine, type EmbeddedEngine, type EmbeddedEngineOptions } from './engine/create-embedded-engine.js';
export { normalizePhone, normalizeEmail } from './rules/phone.js';
