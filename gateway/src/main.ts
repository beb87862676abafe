import { ConfigError } from './config.js';
import { SeedError } from './boot/seed.js';
import { startGateway } from './start-gateway.js';

/** `npm start`: boot from the environment; SIGTERM / SIGINT close gracefully. */
async function main(): Promise<void> {
  let running: Awaited<ReturnType<typeof startGateway>>;
  try {
    running = await startGateway(process.env);
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof SeedError;
    console.error(known ? error.message : error);
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
