import { formatPath, JsonObject, lookAlikeDifference, lookAlikeKey, operatorId, savedUrlProblems } from '@loyalty-gateway/core';
import { EngineSeed } from '@loyalty-gateway/engine';
import { z } from 'zod';
import { adapters } from '../adapters.js';
import { featuredSeedIssues } from '../featured/featured-seed-checks.js';
import { generateConnectionSecret } from '../stores/index.js';
import { StoreId } from '../stores/store-inputs.js';

const slug = z
  .string()
  .max(64, { message: 'must be at most 64 characters' })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: 'must be lowercase letters, digits and single hyphens' });

export const VendorSeed = z.strictObject({
  slug,
  name: operatorId,
  tier: z.enum(['generic', 'featured']),
  /** Provider settings of a vendor with a featured adapter, validated as written by that adapter's schema. */
  settings: JsonObject.optional(),
});

export const ConnectionSeed = z.strictObject({
  vendor: slug,
  /** Kept exactly as written: spaces, slashes and case are significant (none around it, no control characters). */
  storeId: StoreId,
  outletId: operatorId,
  /** Optional only for a featured vendor whose scheme does not read the connection secret (one is generated). */
  secret: z.string().min(16, { message: 'must be at least 16 characters' }).max(1024).optional(),
  active: z.boolean().default(true),
  /** Featured vendors: this connection's credentials (fetch-back, catalog), validated by the adapter. */
  credentials: JsonObject.optional(),
});

/** The whole sandbox seed file. Merchants are checked in full by the engine's EngineSeed too. */
export const GatewaySeed = z.strictObject({
  codePrefix: z.unknown().optional(),
  vendors: z.array(VendorSeed).default([]),
  merchants: z
    .array(z.looseObject({ id: z.unknown(), outlets: z.unknown(), connections: z.array(ConnectionSeed).default([]) }))
    .default([]),
});
export type GatewaySeed = z.infer<typeof GatewaySeed>;

export interface SeedIssue {
  path: string;
  message: string;
}

export interface ParsedSeed {
  /** How errors found while applying it name it: `Seed file ./uat-seed.json`, `The demo sandbox`. */
  source?: string | undefined;
  vendors: Array<z.infer<typeof VendorSeed>>;
  engine: EngineSeed;
  connections: Array<z.infer<typeof ConnectionSeed> & { merchantId: string; secret: string }>;
}

const issuesOf = (error: z.ZodError): SeedIssue[] =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown field' }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );

/**
 * Connections must name a vendor of the file, an outlet of their merchant, and be unique; a store
 * id must not look like another of the same vendor (lookAlikeKey), as the store refuses too.
 */
function checkConnections(seed: GatewaySeed, engine: EngineSeed): SeedIssue[] {
  const issues: SeedIssue[] = [];
  const vendors = new Set(seed.vendors.map((v) => v.slug));
  const taken = new Set<string>();
  const looks = new Map<string, { storeId: string; at: string }>();
  seed.merchants.forEach((merchant, m) => {
    const outlets = new Set((engine.merchants[m]?.outlets ?? []).map((o) => o.id));
    merchant.connections.forEach((connection, c) => {
      const at = `merchants[${m}].connections[${c}]`;
      if (!vendors.has(connection.vendor))
        issues.push({ path: `${at}.vendor`, message: `unknown vendor "${connection.vendor}" (not in vendors)` });
      if (!outlets.has(connection.outletId))
        issues.push({ path: `${at}.outletId`, message: `unknown outlet "${connection.outletId}" of this merchant` });
      const key = JSON.stringify([connection.vendor, connection.storeId]);
      const look = looks.get(JSON.stringify([connection.vendor, lookAlikeKey(connection.storeId)]));
      if (taken.has(key))
        issues.push({
          path: `${at}.storeId`,
          message: `a second connection for vendor "${connection.vendor}" and store "${connection.storeId}"`,
        });
      else if (look)
        issues.push({
          path: `${at}.storeId`,
          message:
            `looks like the store id ${JSON.stringify(look.storeId)} of ${look.at} (vendor ${connection.vendor}), ` +
            `differing only in characters that look alike: ${lookAlikeDifference(connection.storeId, look.storeId)}`,
        });
      taken.add(key);
      if (!look) looks.set(JSON.stringify([connection.vendor, lookAlikeKey(connection.storeId)]), { storeId: connection.storeId, at });
    });
  });
  return issues;
}

/** Validate a parsed seed document; every problem is reported with its path. */
export function parseSeed(document: unknown): { seed: ParsedSeed } | { issues: SeedIssue[] } {
  const outer = GatewaySeed.safeParse(document);
  if (!outer.success) return { issues: issuesOf(outer.error) };
  const seed = outer.data;
  const engineInput = {
    ...(seed.codePrefix === undefined ? {} : { codePrefix: seed.codePrefix }),
    merchants: seed.merchants.map(({ connections: _connections, ...merchant }) => merchant),
  };
  const engine = EngineSeed.safeParse(engineInput);
  if (!engine.success) return { issues: issuesOf(engine.error) };
  const listed = seed.merchants.flatMap((merchant, m) =>
    merchant.connections.map((connection, c) => ({ at: `merchants[${m}].connections[${c}]`, connection })),
  );
  // Every URL in provider settings, whatever the adapter names the field (the adapter's own check may name it too: once).
  const urls = seed.vendors.flatMap((vendor, v) => savedUrlProblems(vendor.settings, ['vendors', v, 'settings']));
  const found = [...checkConnections(seed, engine.data), ...featuredSeedIssues(seed.vendors, listed, adapters), ...urls];
  const issues = found.filter((issue, i) => found.findIndex((other) => other.path === issue.path && other.message === issue.message) === i);
  if (issues.length > 0) return { issues };
  return {
    seed: {
      vendors: seed.vendors,
      engine: engine.data,
      connections: seed.merchants.flatMap((merchant, m) =>
        merchant.connections.map((connection) => ({
          ...connection,
          // A featured connection may have no secret of its own: one nobody knows is kept (rotate to use the generic door).
          secret: connection.secret ?? generateConnectionSecret(),
          merchantId: engine.data.merchants[m]!.id,
        })),
      ),
    },
  };
}
