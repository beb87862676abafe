import { GatewayError } from '../errors.js';
import type { Connection } from '../stores.js';
import { AuthRefusal } from './auth/auth-refusal.js';
import { authenticate } from './auth/authenticate.js';
import type { AuthFailure } from './auth/scheme.js';
import type { AdapterLogger, AnyAdapter } from './define-adapter.js';
import type { NativeRequest } from './native-request.js';
import type { NativeReading, RequestAuth } from './read-native-request.js';
import type { AcceptedOutcome, SkippedUnit } from './vendor-answer.js';

/** What resolving needs of a connection: whether it is active, and the secrets a per-connection scheme checks. */
export type UnitConnection = Pick<Connection, 'active' | 'secrets'>;

/** A unit whose store has an active connection that (per-connection schemes) verified the request. */
export interface ResolvedUnit<C extends UnitConnection = Connection> {
  storeId: string;
  unit: unknown;
  connection: C;
}

export interface ResolvedUnits<C extends UnitConnection = Connection> {
  resolved: Array<ResolvedUnit<C>>;
  /** The units the adapter could not read, then those whose store did not resolve, in the request's order. */
  skipped: SkippedUnit[];
}

export interface ResolveUnitsOptions<C extends UnitConnection> {
  adapter: AnyAdapter;
  auth: RequestAuth;
  request: NativeRequest;
  /** The instant the request is judged at: the one readNativeRequest checked it at. */
  now: Date;
  /** The connection of (adapter, storeId) exactly as the vendor sent it, or null; asked once per store. */
  find(storeId: string): Promise<C | null>;
  log?: Pick<AdapterLogger, 'warn'> | undefined;
}

/** The answer to a request that concerns no store (e.g. a batch with nothing in it): nothing to do. */
export const noStoreOutcome = (): AcceptedOutcome => ({
  status: 'accepted',
  results: [],
  skipped: [],
  notes: ['The request concerns no store: nothing to do.'],
});

/**
 * The second half of the featured door's checks, shared by the gateway and the adapter test kit:
 * each unit's store → its connection; per-connection schemes are verified here, once per store,
 * with that connection's secrets, at the same instant as the rest of the request. Units whose
 * store has no active connection, or whose check fails, are skipped (logged) and the rest go on.
 * When none is left at all: a request the vendor's provider-level secret (or mTLS) already
 * authenticated is still accepted, its units skipped as `unknown_connection` — a store the operator
 * has not connected yet must not get a 401 (Shopify removes a subscription after 8 failed retries,
 * WooCommerce disables the webhook); the gateway records it for the operator. A per-connection
 * scheme cannot authenticate a store without a connection, so there the request is a 401: the first
 * auth failure's own code (`stale_timestamp` or `bad_signature`), else `unknown_connection`.
 * Unreadable units of the reading are reported in `skipped` first.
 */
export async function resolveUnits<C extends UnitConnection>(
  options: ResolveUnitsOptions<C>,
  reading: Pick<Extract<NativeReading, { kind: 'units' }>, 'units' | 'unreadable'>,
): Promise<ResolvedUnits<C>> {
  const { adapter, auth, request, now, log } = options;
  const vendor = adapter.slug;
  const lookups = new Map<string, Promise<C | null>>();
  const checks = new Map<string, { reason: AuthFailure; detail: string } | null>();
  const resolved: Array<ResolvedUnit<C>> = [];
  const skipped = reading.unreadable.map((u): SkippedUnit => ({ storeId: u.storeId, reason: 'unreadable', detail: u.unreadable }));
  for (const u of reading.unreadable)
    log?.warn(
      { vendor, store: u.storeId, detail: u.unreadable },
      'featured webhook: a unit the adapter cannot read was skipped; the rest is processed',
    );
  let firstFailure: { reason: AuthFailure; detail: string } | undefined;

  for (const { storeId, unit } of reading.units) {
    let lookup = lookups.get(storeId);
    if (!lookup) lookups.set(storeId, (lookup = options.find(storeId)));
    const connection = await lookup;
    if (!connection || !connection.active) {
      log?.warn({ vendor, store: storeId }, 'featured webhook: no active connection for this store; unit skipped');
      skipped.push({ storeId, reason: 'unknown_connection' });
      continue;
    }
    if (auth.secrets === 'per-connection') {
      if (!checks.has(storeId)) {
        const check = authenticate(auth.scheme, connection.secrets, request, now);
        checks.set(storeId, check.ok ? null : { reason: check.reason, detail: check.detail });
        if (!check.ok)
          log?.warn(
            { vendor, store: storeId, reason: check.reason, detail: check.detail },
            'featured webhook: connection auth failed; unit skipped',
          );
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

  if (resolved.length === 0 && reading.units.length > 0 && (auth.secrets === 'per-connection' || firstFailure)) {
    throw firstFailure
      ? new AuthRefusal(firstFailure.reason, firstFailure.detail)
      : new GatewayError('unknown_connection', {
          message: `No active ${adapter.display.name} connection for the store(s) in this request.`,
        });
  }
  return { resolved, skipped };
}
