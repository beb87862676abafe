import { AuthRefusal, authenticate, GatewayError, type AuthFailure, type Connection, type WebhookUnit } from '@loyalty-gateway/core';
import type { DoorDeps, RequestScope, ResolvedUnit, SkippedUnit } from './featured-types.js';

export interface ResolvedUnits {
  resolved: ResolvedUnit[];
  skipped: SkippedUnit[];
}

/**
 * Each unit's store → its connection, by (slug, storeId) exactly as the merchant entered it.
 * Per-connection schemes are verified here with that connection's secrets. Units whose store has
 * no active connection, or whose check fails, are skipped (logged) and the rest go on; when none
 * is left at all the whole request is a 401: the first auth failure's code, else unknown_connection.
 */
export async function resolveUnits(deps: DoorDeps, scope: RequestScope, units: WebhookUnit<unknown>[]): Promise<ResolvedUnits> {
  const { adapter, store } = deps;
  const { provider, native: request, log } = scope;
  const lookups = new Map<string, Promise<Connection | null>>();
  const checks = new Map<string, { reason: AuthFailure; detail: string } | null>();
  const resolved: ResolvedUnit[] = [];
  const skipped: SkippedUnit[] = [];
  let firstFailure: { reason: AuthFailure; detail: string } | undefined;

  for (const { storeId, unit } of units) {
    let lookup = lookups.get(storeId);
    if (!lookup) lookups.set(storeId, (lookup = store.find(adapter.slug, storeId)));
    const connection = await lookup;
    if (!connection || !connection.active) {
      log.warn({ vendor: adapter.slug, store: storeId }, 'featured webhook: no active connection for this store; unit skipped');
      skipped.push({ storeId, reason: 'unknown_connection' });
      continue;
    }
    if (provider.secrets === 'per-connection') {
      if (!checks.has(storeId)) {
        const check = authenticate(provider.scheme, connection.secrets, request, new Date(deps.clock()));
        checks.set(storeId, check.ok ? null : { reason: check.reason, detail: check.detail });
        if (!check.ok) log.warn({ vendor: adapter.slug, store: storeId, reason: check.reason, detail: check.detail }, 'featured webhook: connection auth failed; unit skipped');
      }
      const failure = checks.get(storeId);
      if (failure) {
        firstFailure ??= failure;
        skipped.push({ storeId, reason: failure.reason === 'stale_timestamp' ? 'stale_timestamp' : 'bad_signature' });
        continue;
      }
    }
    resolved.push({ storeId, unit, connection });
  }

  if (resolved.length === 0 && units.length > 0) {
    throw firstFailure ? new AuthRefusal(firstFailure.reason, firstFailure.detail) : new GatewayError('unknown_connection', { message: `No active ${adapter.display.name} connection for the store(s) in this request.` });
  }
  return { resolved, skipped };
}
