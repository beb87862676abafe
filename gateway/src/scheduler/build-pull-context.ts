import type { AdapterContext, AdapterLogger, AnyAdapter, HttpClient } from '@loyalty-gateway/core';
import { formatPath } from '@loyalty-gateway/core';
import { parseProviderSettings } from '../featured/index.js';
import type { ConnectionSummary, GatewayStore } from '../stores/index.js';

/** The vendor's settings or the connection's credentials do not fit the adapter: the run fails, naming fields only. */
export class PullSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PullSetupError';
  }
}

function parseCredentials(schema: AnyAdapter['credentials'], value: unknown, what: string): unknown {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  // Paths and messages only: never the values (they are secrets).
  const problems = parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
  throw new PullSetupError(`${what} do not fit the adapter (${problems})`);
}

export interface PullContextDeps {
  store: GatewayStore;
  http: HttpClient;
  logger: AdapterLogger;
  now: () => Date;
}

/**
 * The `ctx` an adapter's `catalog.pull` receives for one connection: the vendor's stored settings
 * and the connection's credentials, each parsed by the adapter's own schema.
 */
export async function buildPullContext(
  adapter: AnyAdapter,
  connection: ConnectionSummary,
  deps: PullContextDeps,
): Promise<AdapterContext<unknown, unknown>> {
  const vendor = await deps.store.getVendor(connection.vendor);
  // The featured door's reading: an operator's `auth` override is not the adapter's business.
  const provider = parseProviderSettings(adapter, vendor?.settings ?? {});
  if (!provider.ok) {
    throw new PullSetupError(
      `the ${connection.vendor} provider settings do not fit the adapter (${provider.fields.map((f) => `${f.path}: ${f.message}`).join('; ')})`,
    );
  }
  const settings = provider.config.settings;
  const credentials = parseCredentials(adapter.credentials, await deps.store.getCredentials(connection.id), 'the connection credentials');
  return { settings, credentials, storeId: connection.storeId, http: deps.http, logger: deps.logger, now: deps.now };
}
