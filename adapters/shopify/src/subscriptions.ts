import { VendorApiError, type SubscriptionReport, type VendorSubscription } from '@loyalty-gateway/core';
import { z } from 'zod';
import { adminApiBaseUrl } from './config.js';
import { shopifyGraphql, type ShopifyContext } from './api.js';

/** The topics the mapping acts on (map.ts): orders/paid, refunds/create, orders/cancelled. */
export const SUBSCRIPTION_TOPICS = ['ORDERS_PAID', 'REFUNDS_CREATE', 'ORDERS_CANCELLED'] as const;

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
 * Every topic delivers to `webhookUrl`: a topic with a subscription there is unchanged; one whose
 * subscription points elsewhere (the gateway moved) is repaired in place (webhookSubscriptionUpdate);
 * a missing one is created (webhookSubscriptionCreate, JSON). Subscriptions made by the app are
 * signed with the app's secret, the one the door verifies; ones added by hand in the admin are not.
 */
export async function ensureSubscriptions(ctx: ShopifyContext, webhookUrl: string): Promise<SubscriptionReport> {
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
