import {
  GatewayError,
  trimTrailingSlashes,
  VendorApiError,
  type AdapterLogger,
  type AnyAdapter,
  type HttpClient,
  type SubscriptionReport,
  type VendorSubscription,
} from '@loyalty-gateway/core';
import { PullSetupError, buildPullContext } from '../scheduler/build-pull-context.js';
import type { ConnectionSummary, GatewayStore } from '../stores/index.js';
import { subscriptionDuplicates, type SubscriptionDuplicate } from './subscription-duplicates.js';

/** What creating a connection did about its webhook subscriptions (in the 201's `subscriptions`). */
export type SubscriptionOutcome =
  { status: 'ensured'; report: SubscriptionReport } | { status: 'skipped'; reason: string } | { status: 'failed'; error: string };

export interface SubscriptionManager {
  /** `{GATEWAY_PUBLIC_URL}/webhooks/{slug}`, or null when no public URL is configured. */
  webhookUrlOf(slug: string): string | null;
  /**
   * The store's subscriptions at the vendor, and those that duplicate each other (one topic
   * subscribed twice to the gateway: every event of it arrives twice).
   */
  list(
    connectionId: string,
  ): Promise<{ webhookUrl: string | null; subscriptions: VendorSubscription[]; duplicates: SubscriptionDuplicate[] }>;
  /** Create what is missing, repair what points elsewhere. 409 subscriptions_not_available, 502 vendor_api_failed. */
  ensure(connectionId: string): Promise<SubscriptionReport>;
  /** Right after a connection is created: ensure when it can, else say why not; never throws. Undefined for adapters without subscriptions. */
  afterCreate(connection: ConnectionSummary): Promise<SubscriptionOutcome | undefined>;
}

export interface SubscriptionManagerOptions {
  store: GatewayStore;
  adapters: readonly AnyAdapter[];
  http: HttpClient;
  logger: AdapterLogger & { error(object: Record<string, unknown>, message: string): void };
  /** GATEWAY_PUBLIC_URL: where the vendor must deliver. */
  publicUrl: string | undefined;
  now?: () => Date;
}

const command = (id: string) => `npm run cli -- admin connections subscriptions ensure ${id}`;

/**
 * Webhook subscriptions the gateway manages for a store through the vendor's API (adapters that
 * declare `subscriptions`: Shopify). One click for the merchant: creating the connection subscribes
 * the shop; `ensure` repairs it later (a moved gateway URL, a subscription the vendor removed).
 */
export function createSubscriptionManager(options: SubscriptionManagerOptions): SubscriptionManager {
  const now = options.now ?? (() => new Date());
  const base = options.publicUrl === undefined ? undefined : trimTrailingSlashes(options.publicUrl);
  const webhookUrlOf = (slug: string) => (base ? `${base}/webhooks/${slug}` : null);
  const unavailable = (message: string) => new GatewayError('subscriptions_not_available', { message });

  /** The adapter's subscriptions API and this connection's context, or why it cannot be used now. */
  async function prepare(connection: ConnectionSummary, needUrl: boolean) {
    const adapter = options.adapters.find((a) => a.slug === connection.vendor);
    const subscriptions = adapter?.subscriptions;
    if (!adapter || !subscriptions)
      throw unavailable(`The ${connection.vendor} adapter does not manage webhook subscriptions: add them in the vendor's own settings.`);
    const webhookUrl = webhookUrlOf(adapter.slug);
    if (needUrl && !webhookUrl)
      throw unavailable(`Set GATEWAY_PUBLIC_URL (the address ${adapter.display.name} delivers to), then run: ${command(connection.id)}`);
    if ((await options.store.getVendor(adapter.slug))?.tier !== 'featured') {
      throw unavailable(
        `${adapter.display.name} is not featured: its deliveries would be refused. Promote it (npm run cli -- admin vendors promote ${adapter.slug}), then run: ${command(connection.id)}`,
      );
    }
    if (!connection.active) throw unavailable('This connection is deactivated; activate it first.');
    try {
      const ctx = await buildPullContext(adapter, connection, { store: options.store, http: options.http, logger: options.logger, now });
      return { adapter, subscriptions, ctx, webhookUrl };
    } catch (error) {
      if (error instanceof PullSetupError)
        throw unavailable(
          `${error.message}: set them with npm run cli -- admin connections credentials ${connection.id} --file <credentials.json>`,
        );
      throw error;
    }
  }

  /** A vendor API failure as 502 vendor_api_failed naming what the vendor answered (never a token). */
  async function vendorCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof VendorApiError) throw new GatewayError('vendor_api_failed', { message: error.message });
      throw error;
    }
  }

  async function connectionOf(id: string): Promise<ConnectionSummary> {
    const connection = await options.store.getConnection(id);
    if (!connection) throw new GatewayError('connection_not_found');
    return connection;
  }

  async function ensureFor(connection: ConnectionSummary): Promise<SubscriptionReport> {
    const { subscriptions, ctx, webhookUrl } = await prepare(connection, true);
    const report = await vendorCall(() => subscriptions.ensure(ctx, webhookUrl!));
    options.logger.info(
      {
        vendor: connection.vendor,
        connectionId: connection.id,
        created: report.created,
        repaired: report.repaired,
        unchanged: report.unchanged,
      },
      'webhook subscriptions ensured',
    );
    return report;
  }

  return {
    webhookUrlOf,
    async list(connectionId) {
      const connection = await connectionOf(connectionId);
      const { adapter, subscriptions, ctx, webhookUrl } = await prepare(connection, false);
      const listed = await vendorCall(() => subscriptions.list(ctx));
      return { webhookUrl, subscriptions: listed, duplicates: subscriptionDuplicates(listed, webhookUrl, adapter.slug) };
    },
    async ensure(connectionId) {
      return ensureFor(await connectionOf(connectionId));
    },
    async afterCreate(connection) {
      if (!options.adapters.find((a) => a.slug === connection.vendor)?.subscriptions) return undefined;
      try {
        return { status: 'ensured', report: await ensureFor(connection) };
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'subscriptions_not_available')
          return { status: 'skipped', reason: error.message };
        options.logger.error(
          { err: error, vendor: connection.vendor, connectionId: connection.id },
          'webhook subscriptions could not be ensured for a new connection',
        );
        return {
          status: 'failed',
          error: `${error instanceof Error ? error.message : String(error)} (retry with: ${command(connection.id)})`,
        };
      }
    },
  };
}
