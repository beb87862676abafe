/** A MoneyBag with only its shop money, as the reconciliation query asks for it. */
export const shopMoney = (amount: string, currencyCode = 'USD') => ({ shopMoney: { amount, currencyCode } });

/** A REST `*_set` ({shop_money, presentment_money}) as a GraphQL MoneyBag. */
const moneyBag = (set: any) =>
  set && {
    shopMoney: set.shop_money && { amount: set.shop_money.amount, currencyCode: set.shop_money.currency_code },
    presentmentMoney: set.presentment_money && { amount: set.presentment_money.amount, currencyCode: set.presentment_money.currency_code },
  };

/** A connection of these nodes, all of them read (pageInfo.hasNextPage false). */
const connection = (nodes: unknown[]) => ({ pageInfo: { hasNextPage: false }, nodes });

/**
 * The Admin GraphQL order (the fields order-read-back.ts asks for) standing for a REST Order and its
 * Refunds. Shopify documents no full GraphQL order, so tests build one field by field from the
 * documented REST resources (fixtures/orders-paid.json, refunds-create.json, unedited): the
 * reconciliation and the webhooks then read the same order, and the tests prove both map it alike.
 * GraphQL's orderAdjustments do not list refunded shipping (API 2024-10: refundShippingLines
 * does), so REST adjustments of kind `shipping_refund` are left out of them.
 */
export function graphqlOrderOf(order: any, refunds: any[] = []): Record<string, unknown> {
  return {
    legacyResourceId: String(order.id),
    test: order.test,
    email: order.email,
    phone: order.phone,
    currencyCode: order.currency,
    sourceName: order.source_name,
    processedAt: order.processed_at,
    createdAt: order.created_at,
    cancelledAt: order.cancelled_at,
    displayFinancialStatus: refunds.length > 0 ? 'PARTIALLY_REFUNDED' : 'PAID',
    totalPriceSet: shopMoney(order.total_price),
    totalOutstandingSet: shopMoney(order.total_outstanding ?? '0.00'),
    billingAddress: order.billing_address ? { countryCodeV2: order.billing_address.country_code } : null,
    shippingAddress: order.shipping_address ? { countryCodeV2: order.shipping_address.country_code } : null,
    customer: order.customer ? { email: order.customer.email, phone: order.customer.phone } : null,
    discountCodes: (order.discount_codes ?? []).map((d: { code: string }) => d.code),
    lineItems: connection(
      (order.line_items ?? []).map((l: any) => ({
        name: l.name,
        title: l.title,
        sku: l.sku,
        quantity: l.quantity,
        originalUnitPriceSet: shopMoney(String(l.price)),
        variant: l.variant_id ? { legacyResourceId: String(l.variant_id) } : null,
        product: l.product_id ? { legacyResourceId: String(l.product_id) } : null,
      })),
    ),
    refunds: refunds.map((r) => ({
      legacyResourceId: String(r.id),
      createdAt: r.created_at,
      processedAt: r.processed_at,
      totalRefundedSet: shopMoney(
        (r.transactions ?? [])
          .filter((t: any) => t.kind === 'refund' && t.status === 'success')
          .reduce((sum: number, t: any) => sum + Number(t.amount), 0)
          .toFixed(2),
      ),
      // REST transactions are in the presentment currency: GraphQL's amountSet.presentmentMoney.
      transactions: connection(
        (r.transactions ?? []).map((t: any) => ({
          kind: String(t.kind).toUpperCase(),
          status: String(t.status).toUpperCase(),
          test: t.test,
          gateway: t.gateway,
          amountSet: { presentmentMoney: { amount: t.amount, currencyCode: t.currency } },
        })),
      ),
      refundLineItems: connection(
        (r.refund_line_items ?? []).map((l: any) => ({ subtotalSet: moneyBag(l.subtotal_set), totalTaxSet: moneyBag(l.total_tax_set) })),
      ),
      refundShippingLines: connection(
        (r.refund_shipping_lines ?? []).map((l: any) => ({ subtotalAmountSet: moneyBag(l.subtotal_amount_set) })),
      ),
      orderAdjustments: connection(
        (r.order_adjustments ?? [])
          .filter((a: any) => a.kind !== 'shipping_refund')
          .map((a: any) => ({ amountSet: moneyBag(a.amount_set) })),
      ),
      duties: (r.duties ?? []).map((d: any) => ({ amountSet: moneyBag(d.amount_set) })),
    })),
  };
}
