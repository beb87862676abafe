/**
 * `npm run engine`: the reference loyalty engine as its own HTTP service (docs/engine-service.md).
 * Environment: ENGINE_PORT, ENGINE_HOST, ENGINE_DATA_DIR, DATABASE_URL, ENGINE_TOKEN,
 * ENGINE_SEED_FILE, LOG_LEVEL. SIGTERM / SIGINT finish in-flight requests, then close.
 */
import { EngineServiceConfigError } from './http/service-config.js';
import { startEngineService, type RunningEngineService } from './http/start-engine-service.js';

async function main(): Promise<void> {
  let running: RunningEngineService;
  try {
    running = await startEngineService(process.env);
  } catch (error) {
    console.error(error instanceof EngineServiceConfigError ? error.message : error);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

void main();
