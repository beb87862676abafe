import {
  AdapterPreview,
  AdapterPreviewRequest,
  CatalogItem,
  CatalogSyncRequest,
  CatalogSyncResult,
  CustomerIdentifier,
  DateTime,
  DeliveryLogEntry,
  DeliveryLogPage,
  DiscountCode,
  EarnPreview,
  EligibilityRequest,
  EligibilityResult,
  EligibleReward,
  Envelope,
  ErrorBody,
  FieldError,
  Item,
  MAX_MONEY,
  NonNegativeMoney,
  PositiveMoney,
  PreviewedEvent,
  PreviewedUnit,
  RedeemRequest,
  RedeemResult,
  Refund,
  RefundRequest,
  RefundResult,
  RefundedTransaction,
  SaleCompletedEnvelope,
  SaleRefundedEnvelope,
  SaleVoidedEnvelope,
  StampUpdate,
  Store,
  Transaction,
  WebhookResult,
} from '@loyalty-gateway/core';
import { z } from 'zod';

/** Every resource of the partner API under the name the spec gives it (components/schemas). */
const NAMED = {
  Envelope,
  SaleCompletedEnvelope,
  SaleRefundedEnvelope,
  SaleVoidedEnvelope,
  Store,
  Transaction,
  RefundedTransaction,
  CustomerIdentifier,
  Item,
  DiscountCode,
  Refund,
  WebhookResult,
  StampUpdate,
  EligibilityRequest,
  EligibilityResult,
  EligibleReward,
  RedeemRequest,
  RedeemResult,
  RefundRequest,
  RefundResult,
  CatalogSyncRequest,
  CatalogItem,
  CatalogSyncResult,
  Error: ErrorBody,
  FieldError,
  // The gateway's extensions (x-extension): the earn preview, the store's delivery log, the operator's adapter preview.
  EarnPreview,
  DeliveryLogPage,
  DeliveryLogEntry,
  AdapterPreviewRequest,
  AdapterPreview,
  PreviewedUnit,
  PreviewedEvent,
  // Shared building blocks, so each stands once in the document.
  DateTime,
  Money: PositiveMoney,
  NonNegativeMoney,
} as const;

export type ComponentName = keyof typeof NAMED;

/**
 * Money is checked in code (core/src/money.ts: exact on the literal, which JSON Schema's
 * `multipleOf` on binary doubles is not), so its keywords are added here for readers and tools.
 */
const MONEY_KEYWORDS = new Map<unknown, Record<string, unknown>>([
  [
    PositiveMoney,
    { exclusiveMinimum: 0, maximum: MAX_MONEY, multipleOf: 0.01, description: 'Money: greater than 0, at most 2 decimal places.' },
  ],
  [NonNegativeMoney, { minimum: 0, maximum: MAX_MONEY, multipleOf: 0.01, description: 'Money: at least 0, at most 2 decimal places.' }],
]);

/**
 * The request and response schemas as OpenAPI 3.1 components, generated from the same zod schemas
 * that validate requests (io: 'input': what a client sends), so the document cannot drift from the
 * validation. Shared parts are `$ref`s to their own component.
 */
export function componentSchemas(): Record<ComponentName, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    override: (ctx) => {
      const keywords = MONEY_KEYWORDS.get(ctx.zodSchema);
      if (keywords) Object.assign(ctx.jsonSchema, keywords);
    },
  });
  const components = {} as Record<ComponentName, Record<string, unknown>>;
  for (const name of Object.keys(NAMED) as ComponentName[]) {
    // Each component stands inside the document: no dialect or id of its own.
    const { $schema: _dialect, $id: _id, ...schema } = schemas[name] as Record<string, unknown>;
    components[name] = schema;
  }
  return components;
}
