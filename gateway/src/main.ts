import { ConfigError, runService } from '@loyalty-gateway/core';
import { SeedError } from './boot/seed.js';
import { startGateway } from './start-gateway.js';

/** `npm start`: boot from the environment; SIGTERM / SIGINT close gracefully. */
void runService(
  () => startGateway(process.env),
  (error) => error instanceof ConfigError || error instanceof SeedError,
);
