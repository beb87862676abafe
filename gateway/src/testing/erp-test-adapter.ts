import { defineAdapter, type AuthSchemeInput, type ResponseSpec } from '@loyalty-gateway/core';
import { z } from 'zod';

/** One store's order in the test ERP's batch; `bug` makes the adapter misbehave on purpose. */
const ErpOrder = z.object({
  storeId: z.string(),
  orderId: z.string(),
  total: z.coerce.number(),
  email: z.string().optional(),
  bug: z.enum(['invalid-envelope', 'other-store', 'throws']).optional(),
});
type ErpOrder = z.infer<typeof ErpOrder>;

const ErpBody = z.looseObject({ ping: z.string().optional(), orders: z.array(ErpOrder).default([]) });
type ErpBody = z.infer<typeof ErpBody>;
/** The form-encoded variant: one order per POST. */
const ErpForm = z
  .object({ storeId: z.string(), orderId: z.string(), total: z.coerce.number() })
  .transform((o): ErpBody => ({ orders: [o] }));

/**
 * A small adapter defined in tests: an ERP middleware posting a batch of orders, by default
 * signed with each connection's own secret (a per-connection HMAC), with a `ping` handshake.
 * Operators switch it to mTLS in its settings (`auth`), as the TLS tests do.
 */
export function erpTestAdapter(options: { slug?: string; auth?: AuthSchemeInput; body?: 'json' | 'form'; response?: ResponseSpec } = {}) {
  const slug = options.slug ?? 'erp-test';
  return defineAdapter({
    slug,
    display: { name: 'Test ERP', description: 'ERP middleware used by tests', category: 'erp', logoSvg: '<svg/>' },
    setup: { storeIdLabel: 'ERP site code', steps: [] },
    settings: z.strictObject({ region: z.string().default('eu') }),
    credentials: z.looseObject({}),
    auth: options.auth ?? { kind: 'hmac', header: 'x-erp-signature', secret: { from: 'connection' } },
    body: options.body ?? 'json',
    native: (options.body === 'form' ? ErpForm : ErpBody) as z.ZodType<ErpBody>,
    handshake: { auth: 'unsigned', detect: (body: ErpBody) => (body.ping ? { note: 'ERP connectivity ping', value: body.ping } : null) },
    ...(options.response ? { response: options.response } : {}),
    units: (body: ErpBody) => body.orders.map((order) => ({ storeId: order.storeId, unit: order })),
    map(order: ErpOrder, ctx) {
      if (order.bug === 'throws') throw new TypeError('adapter bug');
      return {
        envelopes: [
          {
            eventId: `${slug}:${order.orderId}`,
            eventType: 'sale.completed' as const,
            occurredAt: ctx.now().toISOString(),
            store: { id: order.bug === 'other-store' ? 'somewhere-else' : ctx.storeId },
            transaction: {
              id: order.orderId,
              total: order.bug === 'invalid-envelope' ? -5 : order.total,
              currency: 'USD',
              ...(order.email ? { customer: { type: 'email' as const, value: order.email } } : {}),
              items: [],
            },
          },
        ],
      };
    },
  });
}
