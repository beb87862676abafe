import type { VendorSubscription } from '@loyalty-gateway/core';

/** Two or more of the store's subscriptions of one topic delivering to the gateway: each event arrives once per subscription. */
export interface SubscriptionDuplicate {
  topic: string;
  uri: string;
  ids: string[];
}

/**
 * The vendor's subscriptions that duplicate each other: the same topic to the same gateway address
 * (`webhookUrl`; without a configured public URL, any address ending in `/webhooks/{slug}`). The
 * ledger still counts each event once (the vendor's event id keys it), but every event is
 * delivered, authenticated and mapped twice, and the vendor counts both deliveries' failures.
 */
export function subscriptionDuplicates(
  subscriptions: readonly VendorSubscription[],
  webhookUrl: string | null,
  slug: string,
): SubscriptionDuplicate[] {
  const door = `/webhooks/${slug}`;
  const toGateway = (uri: string | null): uri is string => {
    if (uri === null) return false;
    if (webhookUrl) return uri === webhookUrl;
    let end = uri.length; // trailing slashes left out without a regular expression (no backtracking on a long address)
    while (end > 0 && uri[end - 1] === '/') end -= 1;
    return uri.slice(0, end).endsWith(door);
  };
  const byTopic = new Map<string, SubscriptionDuplicate>();
  for (const subscription of subscriptions) {
    if (!toGateway(subscription.uri)) continue;
    const key = `${subscription.topic} ${subscription.uri}`;
    const found = byTopic.get(key) ?? { topic: subscription.topic, uri: subscription.uri, ids: [] };
    found.ids.push(subscription.id);
    byTopic.set(key, found);
  }
  return [...byTopic.values()].filter((group) => group.ids.length > 1);
}

/** What the delivery journal holds of one delivery (its `Delivery`, the fields read here). */
export interface JournalledDelivery {
  receivedAt: string;
  eventId?: string | null | undefined;
  status: number;
  durationMs: number;
  replayOf?: string | null | undefined;
}

/**
 * How long a vendor waits for an answer before it counts the delivery failed and retries it
 * (Shopify: "we're occasionally not receiving a response within 5 seconds … It then times out and
 * assumes that the webhook was not received", Shopify staff,
 * https://community.shopify.com/c/Shopify-APIs-SDKs/Webhook-on-create-orders-called-twice/m-p/543046).
 */
export const VENDOR_ANSWER_WAIT_MS = 5_000;

/**
 * Events the journal saw delivered again although an earlier delivery was answered 2xx in time:
 * not a retry (the vendor retries only a failed or late delivery, and a replay names what it
 * replays), so a second subscription delivered it. That is how subscriptions the vendor's API does
 * not list show (Shopify's app-scoped ones, declared in shopify.app.toml, beside API-created ones).
 */
export function deliveredTwice(deliveries: readonly JournalledDelivery[]): string[] {
  const answered = new Set<string>();
  const twice = new Set<string>();
  const oldestFirst = [...deliveries].filter((d) => d.eventId && !d.replayOf).sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  for (const delivery of oldestFirst) {
    const eventId = delivery.eventId!;
    if (answered.has(eventId)) twice.add(eventId);
    if (delivery.status >= 200 && delivery.status < 300 && delivery.durationMs < VENDOR_ANSWER_WAIT_MS) answered.add(eventId);
  }
  return [...twice];
}
