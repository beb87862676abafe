import type { ConnectionSkew } from '../http/clock-skew.js';
import type { ConnectionActivityView } from '../http/connection-activity.js';
import { GatewayError, parseOrThrow } from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { SecretJson } from '../stores/index.js';
import { ConnectionsQuery, CreateConnectionBody, EmptyBody, RotateBody, SecretObject } from './admin-schemas.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { storeIdProblem } from '../featured/featured-seed-checks.js';
import { parseJsonObject } from '../webhooks/read-envelope.js';
import { connectionIdParam, fieldsOf, readOptionalBody, readQuery } from './read-admin-body.js';
import { readJsonBody } from '../webhooks/read-envelope.js';
import { storeCall } from './store-error.js';
import { deliveredTwice, type SubscriptionDuplicate } from '../subscriptions/index.js';

export const SHOWN_ONCE = 'Give this secret to the merchant now: it is stored encrypted and never shown again.';

/**
 * Connections: list (never secrets), create (the secret in the 201 only), rotate with an overlap
 * deadline (the new secret once; the previous ones valid until then), activate / deactivate, and
 * the per-connection credentials of featured adapters (checked by the adapter, never echoed).
 */
export const skewView = (skew: ConnectionSkew | null) =>
  skew && {
    latestSeconds: skew.latestSeconds,
    smoothedSeconds: skew.smoothedSeconds,
    lastSeenAt: skew.lastSeenAt.toISOString(),
    flagged: skew.flagged,
  };

export const activityView = (activity: ConnectionActivityView | null) =>
  activity && { lastSeenAt: activity.lastSeenAt.toISOString(), lastStatus: activity.lastStatus, lastHour: activity.lastHour };

/** Deliveries of a connection the journal looks at for events delivered twice (its list's most). */
export const DUPLICATE_DELIVERY_WINDOW = 500;

/** What an operator reads first in a subscription listing: each duplicate, in words, and what to do. */
export function subscriptionWarnings(
  duplicates: readonly SubscriptionDuplicate[],
  twice: { events: string[]; examined: number } | null,
): string[] {
  const warnings = duplicates.map(
    (d) =>
      `${d.topic} is subscribed ${d.ids.length} times to ${d.uri} (${d.ids.join(', ')}): each of its events arrives ${d.ids.length} times; delete all but one.`,
  );
  if (twice && twice.events.length > 0) {
    warnings.push(
      `${twice.events.length} event(s) among this connection's last ${twice.examined} deliveries arrived again after a delivery answered in time ` +
        `(not a retry): a subscription the vendor's API does not list delivers them too (Shopify: the app's shopify.app.toml ones beside ` +
        `API-created ones). Keep one way of subscribing (Shopify: managedSubscriptions false, or no toml subscriptions).`,
    );
  }
  return warnings;
}

/** A new secret (shown once); the previous ones stay valid for `overlapSeconds`. */
export async function rotateConnection(
  deps: Pick<AdminDeps, 'store' | 'now'>,
  id: string,
  overlapSeconds: number,
  log: Pick<FastifyBaseLogger, 'info'>,
) {
  const overlapUntil = new Date(deps.now().getTime() + overlapSeconds * 1000);
  const issued = await storeCall(() => deps.store.rotateSecret(id, { overlapUntil }));
  log.info({ connectionId: id, overlapUntil }, 'connection secret rotated');
  return { connection: issued.connection, secret: issued.secret, previousSecretsValidUntil: overlapUntil, notice: SHOWN_ONCE };
}

export async function setConnectionActive(
  deps: Pick<AdminDeps, 'store'>,
  id: string,
  active: boolean,
  log: Pick<FastifyBaseLogger, 'info'>,
) {
  const connection = await storeCall(() => deps.store.setConnectionActive(id, active));
  log.info({ connectionId: id }, `connection ${active ? 'activate' : 'deactivate'}d`);
  return connection;
}

/** Credentials of a vendor with an adapter must fit its schema, whatever its tier (422 naming `credentials.*`). */
function checkCredentials(deps: Pick<AdminDeps, 'adapterOf'>, vendor: string, credentials: SecretJson, prefix: string): void {
  const adapter = deps.adapterOf(vendor);
  if (!adapter) return;
  const parsed = adapter.credentials.safeParse(credentials);
  if (parsed.success) return;
  const fields = fieldsOf(parsed.error, credentials, prefix);
  throw new GatewayError('validation_failed', {
    message: `The credentials do not fit the ${adapter.display.name} adapter: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}.`,
    fields,
  });
}

/** A store id the vendor's adapter declares a shape for must fit it (Shopify: the myshopify.com domain). */
function checkStoreId(deps: Pick<AdminDeps, 'adapterOf'>, vendor: string, storeId: string): void {
  const adapter = deps.adapterOf(vendor);
  const problem = adapter ? storeIdProblem(adapter, storeId) : null;
  if (!problem || !adapter) return;
  throw new GatewayError('validation_failed', {
    message: `The store id does not fit the ${adapter.display.name} adapter: storeId ${problem}.`,
    fields: [{ path: 'storeId', message: problem }],
  });
}

/** The engine must have the merchant and its outlet: every event of a connection to nowhere would be a 500. */
async function checkOutlet(deps: Pick<AdminDeps, 'engine'>, merchantId: string, outletId: string): Promise<void> {
  const found = await deps.engine.findOutlet({ merchantId, outletId });
  if (found.outlet) return;
  const field = found.merchant
    ? { path: 'outletId', message: `merchant "${merchantId}" has no outlet "${outletId}" in the loyalty engine` }
    : { path: 'merchantId', message: `the loyalty engine has no merchant "${merchantId}"` };
  throw new GatewayError('validation_failed', {
    message: `The connection names what the loyalty engine does not have: ${field.path} ${field.message}.`,
    fields: [field],
  });
}

/**
 * A connection (the secret in the answer only): its vendor must exist, its credentials and store id
 * fit the vendor's adapter, and the engine have its merchant and outlet. The admin API and the
 * console both create through it.
 */
export async function createConnection(
  deps: Pick<AdminDeps, 'store' | 'adapterOf' | 'engine' | 'subscriptions'>,
  raw: unknown,
  log: Pick<FastifyBaseLogger, 'info'>,
) {
  const body = parseOrThrow(CreateConnectionBody, raw);
  if (!(await deps.store.getVendor(body.vendor)))
    throw new GatewayError('vendor_not_found', { message: `No vendor with slug "${body.vendor}".` });
  // Absent credentials are checked as {}: a connection the adapter cannot fetch back with would
  // answer every event 500 (and the vendor retries forever).
  checkCredentials(deps, body.vendor, body.credentials ?? {}, 'credentials');
  checkStoreId(deps, body.vendor, body.storeId);
  await checkOutlet(deps, body.merchantId, body.outletId);
  const issued = await storeCall(() => deps.store.createConnection(body));
  log.info({ connectionId: issued.connection.id, vendor: body.vendor }, 'connection created');
  // Adapters that manage the vendor's webhook subscriptions (Shopify) subscribe the store now: one step for the merchant.
  const subscriptions = await deps.subscriptions?.afterCreate(issued.connection);
  return { connection: issued.connection, secret: issued.secret, notice: SHOWN_ONCE, ...(subscriptions ? { subscriptions } : {}) };
}

export function registerConnectionRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  async function requireConnection(id: string) {
    const connection = await deps.store.getConnection(id);
    if (!connection) throw new GatewayError('connection_not_found');
    return connection;
  }

  scope.get('/connections', ADMIN_ROUTE, async (request) => {
    const filter = readQuery(ConnectionsQuery, request.query);
    const connections = await deps.store.listConnections(filter);
    // Clock skew and activity as this process saw the connection (null: it sent nothing here lately / since start).
    return {
      connections: connections.map((c) => ({
        ...c,
        clockSkew: skewView(deps.clockSkew?.of(c.id) ?? null),
        activity: activityView(deps.activity?.of(c.id) ?? null),
      })),
    };
  });

  scope.post('/connections', ADMIN_ROUTE, async (request, reply) =>
    reply.code(201).send(await createConnection(deps, parseJsonObject(request.body), request.log)),
  );

  const subscriptionManager = () => {
    if (!deps.subscriptions) throw new GatewayError('not_found');
    return deps.subscriptions;
  };

  /**
   * The store's webhook subscriptions at the vendor (adapters that manage them): list, and ensure
   * (create missing, repair moved). The listing reports duplicates: one topic subscribed twice to
   * the gateway, and, from the delivery journal when it is on, events delivered twice although the
   * first delivery was answered in time (a subscription the vendor's API does not list).
   */
  scope.get('/connections/:id/subscriptions', ADMIN_ROUTE, async (request) => {
    const id = connectionIdParam(request.params);
    const listed = await subscriptionManager().list(id);
    let twice: { events: string[]; examined: number } | null = null;
    if (deps.journal) {
      const { deliveries } = await deps.journal.list({ connectionId: id, limit: DUPLICATE_DELIVERY_WINDOW });
      twice = { events: deliveredTwice(deliveries), examined: deliveries.length };
    }
    return {
      ...listed,
      ...(twice ? { deliveredTwice: { examined: twice.examined, count: twice.events.length, eventIds: twice.events.slice(0, 10) } } : {}),
      warnings: subscriptionWarnings(listed.duplicates, twice),
    };
  });
  scope.post('/connections/:id/subscriptions', ADMIN_ROUTE, async (request) => {
    const id = connectionIdParam(request.params);
    readOptionalBody(EmptyBody, request.body);
    return { report: await subscriptionManager().ensure(id) };
  });

  scope.post('/connections/:id/rotate', ADMIN_ROUTE, async (request) => {
    const id = connectionIdParam(request.params);
    const { overlapSeconds } = readOptionalBody(RotateBody, request.body);
    return rotateConnection(deps, id, overlapSeconds, request.log);
  });

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    scope.post(`/connections/:id/${action}`, ADMIN_ROUTE, async (request) => {
      const id = connectionIdParam(request.params);
      readOptionalBody(EmptyBody, request.body);
      return { connection: await setConnectionActive(deps, id, active, request.log) };
    });
  }

  scope.put('/connections/:id/credentials', ADMIN_ROUTE, async (request) => {
    const id = connectionIdParam(request.params);
    const credentials = readJsonBody(SecretObject, request.body);
    const connection = await requireConnection(id);
    checkCredentials(deps, connection.vendor, credentials, '');
    const updated = await storeCall(() => deps.store.setCredentials(id, credentials));
    request.log.info({ connectionId: id, keys: Object.keys(credentials) }, 'connection credentials replaced');
    return { connection: updated };
  });
}
