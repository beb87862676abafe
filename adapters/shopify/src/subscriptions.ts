import { GatewayError, VendorApiError, type SubscriptionReport, type VendorSubscription } from '@loyalty-gateway/core';
import { z } from 'zod';
import { adminApiBaseUrl } from './config.js';
import { shopifyGraphql, type ShopifyContext } from './api.js';

/**
 * The topics the mapping acts on (map.ts, map-unit.ts): orders/paid, refunds/create,
 * orders/cancelled, order_transactions/create (a pending refund settling) and disputes/update (a
 * chargeback lost: needs the read_shopify_payments_disputes scope).
 */
export const SUBSCRIPTION_TOPICS = [
  'ORDERS_PAID',
  'REFUNDS_CREATE',
  'ORDERS_CANCELLED',
  'ORDER_TRANSACTIONS_CREATE',
  'DISPUTES_UPDATE',
] as const;

/** The same topics as shopify.app.toml names them (README, "Subscribing the webhooks"): ORDER_TRANSACTIONS_CREATE is order_transactions/create. */
export const TOML_TOPICS = SUBSCRIPTION_TOPICS.map((topic) => topic.toLowerCase().replace(/_(?=[^_]*$)/, '/'));

const Subscription = z.looseObject({ id: z.string(), topic: z.string(), uri: z.string().nullish() });
const fields = 'id topic uri';
const LIST = `query Subscriptions($topics: [WebhookSubscriptionTopic!]) { webhookSubscriptions(first: 100, topics: $topics) { nodes { ${fields} } } }`;
const CREATE = `mutation CreateSubscription($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) { webhookSubscription { ${fields} } userErrors { field message } }
}`;
const UPDATE = `mutation RepairSubscription($id: ID!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionUpdate(id: $id, webhookSubscription: $webhookSubscription) { webhookSubscription { ${fields} } userErrors { field message } }
}`;
const Listed = z.looseObject({ webhookSubscriptions: z.looseObject({ nodes: z.array(Subscription) }) });
const Payload = z.looseObject({
  webhookSubscription: Subscription.nullish(),
  userErrors: z.array(z.looseObject({ message: z.string() })).default([]),
});

const view = (s: z.infer<typeof Subscription>): VendorSubscription => ({ id: s.id, topic: s.topic, uri: s.uri ?? null });

/** The shop's subscriptions of this app for the adapter's topics (webhookSubscriptions is app-scoped). */
export async function listSubscriptions(ctx: ShopifyContext): Promise<VendorSubscription[]> {
  const data = await shopifyGraphql(ctx, Listed, LIST, { topics: SUBSCRIPTION_TOPICS });
  return data.webhookSubscriptions.nodes.map(view);
}

/** A mutation's subscription, or its userErrors as a VendorApiError (not retryable: the input is wrong). */
function subscriptionOf(payload: z.infer<typeof Payload> | null | undefined, what: string, ctx: ShopifyContext): VendorSubscription {
  if (payload?.webhookSubscription && payload.userErrors.length === 0) return view(payload.webhookSubscription);
  const why = payload?.userErrors.map((e) => e.message).join('; ') || 'no subscription returned';
  throw new VendorApiError(422, `${adminApiBaseUrl(ctx.settings, ctx.storeId)}/graphql.json`, `Shopify refused to ${what}: ${why}`);
}

/**
 * Only with the provider setting `managedSubscriptions: true` (else 409 subscriptions_not_available,
 * saying how to declare the topics in shopify.app.toml or turn it on).
 * Every topic delivers to `webhookUrl`: a topic with a subscription there is unchanged; one whose
 * subscription points elsewhere (the gateway moved) is repaired in place (webhookSubscriptionUpdate);
 * a missing one is created (webhookSubscriptionCreate, JSON). Subscriptions made by the app are
 * signed with the app's secret, the one the door verifies; ones added by hand in the admin are not.
 */
export async function ensureSubscriptions(ctx: ShopifyContext, webhookUrl: string): Promise<SubscriptionReport> {
  if (!ctx.settings.managedSubscriptions) {
    throw new GatewayError('subscriptions_not_available', {
      message:
        `Shopify subscriptions are not managed by the gateway (provider setting managedSubscriptions is false): ` +
        `declare the topics ${TOML_TOPICS.join(', ')} with uri ${webhookUrl} in the app's shopify.app.toml and run shopify app deploy. ` +
        `For an app without toml subscriptions only, set "managedSubscriptions": true (PUT /admin/vendors/shopify/settings) and ensure again; ` +
        `never both: the Admin API does not list the toml ones, so every event would arrive twice.`,
    });
  }
  const existing = await listSubscriptions(ctx);
  const report: SubscriptionReport = { webhookUrl, created: [], repaired: [], unchanged: [], subscriptions: [] };
  for (const topic of SUBSCRIPTION_TOPICS) {
    const mine = existing.filter((s) => s.topic === topic);
    const here = mine.find((s) => s.uri === webhookUrl);
    if (here) {
      report.unchanged.push(topic);
      report.subscriptions.push(here);
    } else if (mine[0]) {
      const data = await shopifyGraphql(ctx, z.looseObject({ webhookSubscriptionUpdate: Payload.nullish() }), UPDATE, {
        id: mine[0].id,
        webhookSubscription: { uri: webhookUrl },
      });
      report.subscriptions.push(subscriptionOf(data.webhookSubscriptionUpdate, `repair the ${topic} subscription`, ctx));
      report.repaired.push(topic);
    } else {
      const data = await shopifyGraphql(ctx, z.looseObject({ webhookSubscriptionCreate: Payload.nullish() }), CREATE, {
        topic,
        webhookSubscription: { uri: webhookUrl, format: 'JSON' },
      });
      report.subscriptions.push(subscriptionOf(data.webhookSubscriptionCreate, `create the ${topic} subscription`, ctx));
      report.created.push(topic);
    }
  }
  return report;
}
