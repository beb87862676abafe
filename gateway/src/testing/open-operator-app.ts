import { EngineUnavailableError, type AnyAdapter, type LoyaltyEngine } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import { openGateway, type OperatorGateway } from './gateway-fixture.js';
import { buildSeed } from './seed-builder.js';

export { ADMIN_TOKEN } from './gateway-fixture.js';

/** The gateway fixture with the operator side (what the admin suites call it). */
export type OperatorApp = OperatorGateway;

/** The test seed with the three featured vendors' rows (generic until promoted) and Clover settings. */
export function operatorSeed(settings: { cloverApiBaseUrl?: string; shopifyApiBaseUrl?: string } = {}) {
  return buildSeed({
    vendors: [
      {
        slug: 'shopify',
        name: 'Shopify',
        tier: 'featured',
        settings: {
          appSecret: 'shopify-app-secret-value',
          ...(settings.shopifyApiBaseUrl ? { apiBaseUrl: settings.shopifyApiBaseUrl } : {}),
        },
      },
      {
        slug: 'clover',
        name: 'Clover',
        tier: 'generic',
        settings: { authCode: 'clover-auth-code-secret', apiBaseUrl: settings.cloverApiBaseUrl ?? 'https://api.clover.com' },
      },
    ],
  });
}

/** `openGateway` with /admin, /directory and the featured doors mounted (SQLite in memory or a PostgreSQL schema). */
export function openOperatorApp(
  options: {
    dialect?: 'sqlite' | 'postgres';
    token?: string | undefined;
    adapters?: readonly AnyAdapter[];
    publicUrl?: string;
    seedDocument?: unknown;
    /** Whether the gateway runs its HTTPS listener (mTLS `direct`); not checked when absent. */
    tlsListener?: boolean;
    /** GATEWAY_ENV as the directory sees it (development when absent). */
    environment?: string;
    /** What the admin API calls after writing a vendor (the process's settings-change feed). */
    onVendorChanged?: () => Promise<void>;
    /** The longest an admin write waits for onVendorChanged. */
    vendorChangeWaitMs?: number;
    /** Mount the delivery journal (and its admin routes and replay). */
    journal?: boolean;
    /** The journal's search bound per page (its searchWindow and searchWindows); the journal's defaults when absent. */
    journalSearch?: { window: number; windows: number };
    /** While `down` is true the engine's earn and reverse fail as unreachable (the doors answer 500). */
    engineFault?: { down: boolean };
    /** The engine the doors and checkout call instead of the embedded one (a remote engine client); the admin API keeps the embedded one. */
    engine?: ((embedded: EmbeddedEngine) => LoyaltyEngine) | undefined;
    /** GATEWAY_TRUSTED_PROXIES (none when absent). */
    trustedProxies?: string[];
    /** GATEWAY_REFUSED_LIMIT (none when absent). */
    refusalLimit?: { max: number };
  } = {},
): Promise<OperatorApp> {
  const fault = options.engineFault;
  const down = () => Promise.reject(new EngineUnavailableError('engine unreachable (test fault)'));
  return openGateway({
    dialect: options.dialect,
    seedDocument: options.seedDocument ?? operatorSeed(),
    trustedProxies: options.trustedProxies,
    refusalLimit: options.refusalLimit,
    // While `fault.down`, the doors' earn and reverse fail as unreachable; admin calls the engine itself.
    engine: (engine) =>
      options.engine
        ? options.engine(engine)
        : fault
          ? {
              ...engine,
              earn: (command, callOptions) => (fault.down ? down() : engine.earn(command, callOptions)),
              reverse: (command, callOptions) => (fault.down ? down() : engine.reverse(command, callOptions)),
            }
          : engine,
    featured: { adapters: options.adapters, publicUrl: options.publicUrl },
    operator: {
      ...('token' in options ? { token: options.token } : {}),
      tlsListener: options.tlsListener,
      environment: options.environment,
      onVendorChanged: options.onVendorChanged,
      vendorChangeWaitMs: options.vendorChangeWaitMs,
      journal: options.journal,
      journalSearch: options.journalSearch,
    },
  });
}
