/**
 * `npm run engine`: the reference loyalty engine as its own HTTP service (docs/engine-service.md).
 * Environment: ENGINE_PORT, ENGINE_HOST, ENGINE_DATA_DIR, DATABASE_URL, ENGINE_TOKEN,
 * ENGINE_SEED_FILE, LOG_LEVEL. SIGTERM / SIGINT finish in-flight requests, then close.
 */
import { ConfigError, runService } from '@loyalty-gateway/core';
import { startEngineService } from './http/start-engine-service.js';

void runService(
  () => startEngineService(process.env),
  (error) => error instanceof ConfigError,
);
