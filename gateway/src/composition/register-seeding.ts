import type { DependencyContainer } from 'tsyringe';
import { ensureDemo } from '../boot/demo.js';
import type { ParsedSeed } from '../boot/seed-schema.js';
import { applySeed, loadSeedFile } from '../boot/seed.js';
import type { GatewayConfig } from '../config.js';
import type { GatewayStore } from '../stores/index.js';
import { get, open, perContainer, provide } from './container.js';
import { TOKENS } from './tokens.js';

/**
 * A remote engine applies its own seed (ENGINE_SEED_FILE): the gateway seeds only what it owns,
 * vendors and connections. Returns how many were created.
 */
async function applyGatewaySeedOnly(seed: ParsedSeed, store: GatewayStore): Promise<{ vendors: number; connections: number }> {
  let vendors = 0;
  let connections = 0;
  for (const vendor of seed.vendors) if ((await store.ensureVendor(vendor)).created) vendors += 1;
  for (const connection of seed.connections) if ((await store.ensureConnection(connection)).created) connections += 1;
  return { vendors, connections };
}

/** The boot's data steps: the seed file (GATEWAY_SEED_FILE), the demo sandbox (development), and both in order. */
export function registerSeeding(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.seedDocument,
    perContainer(async () => (config.GATEWAY_SEED_FILE ? loadSeedFile(config.GATEWAY_SEED_FILE) : null)),
  );
  provide(
    c,
    TOKENS.seedStep,
    perContainer(async (r) => {
      // Opened before the file is read: a refused seed file finds a migrated, empty database (closed by start-up's failure).
      const store = await open(r, TOKENS.store);
      const embedded = await open(r, TOKENS.embeddedEngine);
      const seed = await open(r, TOKENS.seedDocument);
      if (!seed) return null;
      const created = embedded ? await applySeed(seed, { store, engine: embedded }) : await applyGatewaySeedOnly(seed, store);
      const log = get(r, TOKENS.logger);
      if (config.GATEWAY_SEED_FILE) log?.info({ file: config.GATEWAY_SEED_FILE, ...created }, 'seed file applied');
      if (!embedded)
        log?.info(
          "remote loyalty engine: merchants, members and rewards come from the engine service's own ENGINE_SEED_FILE, not this seed file",
        );
      return created;
    }),
  );
  // The demo sandbox seeds engine data too: only with the embedded engine.
  provide(
    c,
    TOKENS.demoStep,
    perContainer(async (r) => {
      if (config.GATEWAY_ENV !== 'development') return null;
      const engine = await open(r, TOKENS.embeddedEngine);
      if (!engine) return null;
      const { firstStart } = await open(r, TOKENS.dataDir);
      return ensureDemo(config.GATEWAY_DATA_DIR, firstStart, { store: await open(r, TOKENS.store), engine });
    }),
  );
  // The data first (seed file, then demo sandbox): what the doors and the jobs find at start.
  provide(
    c,
    TOKENS.seeded,
    perContainer(async (r) => {
      await open(r, TOKENS.seedStep);
      await open(r, TOKENS.demoStep);
    }),
  );
}
