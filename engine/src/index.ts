export { engineMigrations } from './db/migrations/index.js';
export type { EngineTables } from './db/schema.js';
export { EngineSeed, DEFAULT_CODE_PREFIX, type EngineSeedInput } from './seed/engine-seed.js';
export {
  createEmbeddedEngine,
  ENGINE_NOTICE_MESSAGES,
  type EmbeddedEngine,
  type EmbeddedEngineOptions,
  type EngineNotice,
} from './ledger/create-embedded-engine.js';
export { createWorkerEngine, type WorkerEngine, type WorkerEngineOptions } from './worker/create-worker-engine.js';
export type { HostFailedMessage } from './worker/worker-messages.js';
export { openEngine, type OpenEngineOptions } from './ledger/open-engine.js';
export { normalizePhone, normalizeEmail } from './rules/phone.js';
export { createEngineServer, type EngineServerOptions } from './http/create-engine-server.js';
export { ENGINE_BUDGET_HEADER } from './http/call-deadline.js';
export { BATCH_PATH, MAX_BATCH_CALLS, type BatchCall, type BatchOperation, type BatchResult } from './http/command-batch.js';
export type { EngineErrorBody } from './http/reply-error.js';
export { startEngineService, type RunningEngineService } from './http/start-engine-service.js';
export { loadEngineServiceConfig, EngineServiceConfig, EngineServiceConfigError } from './http/service-config.js';
