export { createGatewayStore, type GatewayStoreOptions } from './sql-gateway-store.js';
export type {
  ConnectionFilter,
  ConnectionInput,
  ConnectionSummary,
  GatewayStore,
  IssuedSecret,
  RotateSecretOptions,
  SecretJson,
  Vendor,
  VendorInput,
  VendorSummary,
  VendorTier,
  CatalogClaim,
  CatalogRun,
  CatalogRunCounts,
  CatalogRunFilter,
  CatalogRunStatus,
  CatalogRunStore,
  CatalogRunTrigger,
  VendorNote,
  VendorNoteInput,
  VendorNoteStore,
} from './gateway-store-types.js';
export { createVendorNoteStore, type OperatorStoreOptions } from './vendor-note-store.js';
export { createCatalogRunStore, type CatalogRunStoreOptions } from './catalog-run-store.js';
export {
  ConnectionExistsError,
  ConnectionNotFoundError,
  LookAlikeStoreIdError,
  StoreInputError,
  VendorNotFoundError,
} from './store-errors.js';
export { generateConnectionSecret } from './connection-repository.js';
export { gatewayMigrations } from './gateway-migrations.js';
export { createSecretBox, SecretBoxError, type SecretBox } from './secret-box.js';
export { loadMasterKey, parseMasterKey, MASTER_KEY_FILE, type GatewayEnvironment, type LoadMasterKeyOptions } from './master-key.js';
export { createMemoryIdempotencyCache, type MemoryIdempotencyCacheOptions } from './memory-idempotency-cache.js';
export {
  createRedisIdempotencyCache,
  DEFAULT_IDEMPOTENCY_KEY_PREFIX,
  type RedisIdempotencyCacheOptions,
} from './redis-idempotency-cache.js';
export { createIdempotencyCache, type IdempotencyCacheOptions } from './create-idempotency-cache.js';
export { createRedisClient } from './create-redis-client.js';
export { RotatingTtlMap, type RotatingTtlMapOptions } from './rotating-ttl-map.js';
