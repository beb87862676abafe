import {
  CustomerIdentifier,
  NOT_STORABLE,
  isStorableText,
  Store,
  type CatalogSyncCommand,
  type OutletQuery,
  type EarnCommand,
  type EligibilityCommand,
  type RedeemCommand,
  type ReverseCommand,
  type WithdrawRefundsCommand,
  type ReversedOrdersQuery,
} from '@loyalty-gateway/core';
import { z } from 'zod';

/**
 * The port's commands as strict zod schemas: the engine service's request bodies. They check
 * shape and types only; business rules (selector, eligibility, amounts) stay in the engine so the
 * HTTP engine and the embedded one refuse the same inputs with the same codes.
 */
/**
 * Text as the databases store it: no NUL (PostgreSQL's text refuses it: a 500) and no unpaired
 * surrogate (both drivers store U+FFFD, so two ids could become one), as the gateway's canonical
 * schemas require of everything they pass on: 400 invalid_command here.
 */
const storable = z.string().refine(isStorableText, { message: NOT_STORABLE });
const text = storable.min(1);
const int = z.number().int().refine(Number.isSafeInteger, { message: 'must be a safe integer' });

const scope = {
  merchantId: text,
  outletId: text,
  source: z.strictObject({ vendor: text, storeId: text }),
};

const SaleLine = z.strictObject({
  id: storable.optional(),
  name: storable,
  sku: storable.optional(),
  quantity: int,
  unitPriceMinor: int,
});

const SaleDiscountCode = z.strictObject({ code: storable, amountMinor: int.optional(), type: storable.optional() });

export const EarnCommandSchema = z.strictObject({
  ...scope,
  eventId: text,
  occurredAt: storable,
  store: Store,
  transaction: z.strictObject({
    id: text,
    totalMinor: int,
    currency: storable,
    channel: storable.optional(),
    customer: CustomerIdentifier.optional(),
    items: z.array(SaleLine),
    discountCodes: z.array(SaleDiscountCode),
  }),
});

export const ReverseCommandSchema = z.strictObject({
  ...scope,
  transactionId: text,
  refundId: text,
  amountMinor: int.optional(),
  currency: storable.min(1).max(10).optional(),
  occurredAt: storable.optional(),
});

export const WithdrawRefundsCommandSchema = z.strictObject({
  ...scope,
  transactionId: text,
  keep: z.array(text),
  asOf: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
});

export const EligibilityCommandSchema = z.strictObject({
  ...scope,
  customer: CustomerIdentifier,
  orderValueMinor: int.optional(),
});

export const RedeemCommandSchema = z.strictObject({
  ...scope,
  customer: CustomerIdentifier,
  externalTransactionId: text,
  rewardId: storable.optional(),
  pointsToRedeem: z.number().optional(),
  orderValueMinor: int.optional(),
});

export const CatalogSyncCommandSchema = z.strictObject({
  ...scope,
  items: z.array(
    z.strictObject({
      externalId: storable,
      name: storable,
      sku: storable.optional(),
      category: storable.optional(),
      priceMinor: int.optional(),
      isActive: z.boolean(),
    }),
  ),
});

/** The read-only lookup of a store's recently reversed orders (`reversedOrders`). */
export const ReversedOrdersQuerySchema = z.strictObject({
  source: scope.source,
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
  limit: int.min(1).max(1000),
});

/** The read-only outlet lookup (`findOutlet`). */
export const OutletQuerySchema = z.strictObject({ merchantId: text, outletId: text });

// Compile-time check: each schema's output is exactly a port command.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <T extends true>(): T | undefined => undefined;
exact<Same<z.infer<typeof EarnCommandSchema>, EarnCommand>>();
exact<Same<z.infer<typeof ReverseCommandSchema>, ReverseCommand>>();
exact<Same<z.infer<typeof WithdrawRefundsCommandSchema>, WithdrawRefundsCommand>>();
exact<Same<z.infer<typeof EligibilityCommandSchema>, EligibilityCommand>>();
exact<Same<z.infer<typeof RedeemCommandSchema>, RedeemCommand>>();
exact<Same<z.infer<typeof CatalogSyncCommandSchema>, CatalogSyncCommand>>();
exact<Same<z.infer<typeof OutletQuerySchema>, OutletQuery>>();
exact<Same<z.infer<typeof ReversedOrdersQuerySchema>, ReversedOrdersQuery>>();
