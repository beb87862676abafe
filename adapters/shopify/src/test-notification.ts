import type { ShopifyOrder, ShopifyRefund } from './native.js';

/**
 * Shopify's admin "Send test notification" (and `shopify app webhook trigger`) posts the topic's
 * documented sample payload (shopify.dev/docs/api/webhooks, "Sample Payload"): the order samples
 * carry id 820982911946154508 and `"test": true`; the refunds/create sample carries refund id
 * 890088186047892319 for that order and NO test flag (its transactions even say `test: false`).
 * Uncertain: Shopify could change the sample ids, so the order `test` flag is checked as well;
 * it also marks orders placed in test mode (Bogus gateway), which are not real sales either.
 */
export const SHOPIFY_SAMPLE_ORDER_ID = '820982911946154508';
export const SHOPIFY_SAMPLE_REFUND_ID = '890088186047892319';

/** Why an order must not earn (a test notification or a test order), or null. */
export function orderTestReason(order: ShopifyOrder): string | null {
  if (order.id === SHOPIFY_SAMPLE_ORDER_ID) return 'Shopify test notification (documented sample order): accepted, nothing to do';
  if (order.test === true) return `Shopify test order ${order.id} (test: true): accepted, nothing to do`;
  return null;
}

/** Why a refund must not reverse anything (the test notification or a test-mode refund), or null. */
export function refundTestReason(refund: ShopifyRefund): string | null {
  if (refund.id === SHOPIFY_SAMPLE_REFUND_ID || refund.order_id === SHOPIFY_SAMPLE_ORDER_ID) {
    return 'Shopify test notification (documented sample refund): accepted, nothing to do';
  }
  const transactions = refund.transactions ?? [];
  if (transactions.length > 0 && transactions.every((t) => t.test === true)) {
    return `Shopify test-mode refund ${refund.id} (all transactions test: true): accepted, nothing to do`;
  }
  return null;
}
