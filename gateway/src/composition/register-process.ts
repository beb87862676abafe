import type { DependencyContainer } from 'tsyringe';
import { isEmptyDataDir } from '../boot/demo.js';
import { ensureDevelopmentAdminToken } from '../boot/development-admin-token.js';
import { privateDataDir } from '../boot/private-data-dir.js';
import type { GatewayConfig } from '../config.js';
import { createGatewayLogging } from '../http/logger-options.js';
import { get, open, perContainer, provide } from './container.js';
import { ResourceScope } from './resource-scope.js';
import { TOKENS } from './tokens.js';

/** What every part of the process reads: config, the scope that closes it, logging, the clock. */
export function registerProcess(c: DependencyContainer, config: GatewayConfig): void {
  provide(c, TOKENS.config, { useValue: config });
  provide(
    c,
    TOKENS.scope,
    perContainer((r) => new ResourceScope(() => get(r, TOKENS.logger))),
  );
  provide(
    c,
    TOKENS.logging,
    perContainer(() => createGatewayLogging(config.LOG_LEVEL)),
  );
  provide(
    c,
    TOKENS.logger,
    perContainer((r) => get(r, TOKENS.logging).logger),
  );
  provide(
    c,
    TOKENS.requestLineLogger,
    perContainer((r) => get(r, TOKENS.logging).requestLine),
  );
  provide(c, TOKENS.clock, { useValue: Date.now });
}

/** The data directory (private, its first start noted) and the admin token in force. */
export function registerDataDir(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.dataDir,
    perContainer(async () => {
      const firstStart = await isEmptyDataDir(config.GATEWAY_DATA_DIR);
      // Without DATABASE_URL: the gateway's SQLite file, and the embedded engine's unless the engine is remote.
      const sqliteFiles = config.DATABASE_URL ? [] : ['gateway.sqlite', ...(config.LOYALTY_ENGINE_URL ? [] : ['engine.sqlite'])];
      await privateDataDir(config.GATEWAY_DATA_DIR, sqliteFiles);
      return { firstStart };
    }),
  );
  // Development turns /admin, /console and /metrics on from the first start with a generated token;
  // elsewhere only GATEWAY_ADMIN_TOKEN does (production requires it, config.ts).
  provide(
    c,
    TOKENS.adminToken,
    perContainer(async (r) => {
      if (config.GATEWAY_ADMIN_TOKEN) return { token: config.GATEWAY_ADMIN_TOKEN, file: null };
      if (config.GATEWAY_ENV !== 'development') return { token: undefined, file: null };
      // After the data dir step: the token file must not make a first start look like a later one (the demo sandbox).
      await open(r, TOKENS.dataDir);
      return ensureDevelopmentAdminToken(config.GATEWAY_DATA_DIR);
    }),
  );
}
