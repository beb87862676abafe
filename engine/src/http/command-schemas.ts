import {
  CustomerIdentifier,
  Store,
  type CatalogSyncCommand,
  type OutletQuery,
  type EarnCommand,
  type EligibilityCommand,
  type RedeemCommand,
  type ReverseCommand,
} from '@loyalty-gateway/core';
import { z } from 'zod';

/**
 * The port's commands as strict zod schemas: the engine service's request bodies. They check
 * shape and types only; business rules (selector, eligibility, amounts) stay in the engine so the
 * HTTP engine and the embedded one refuse the same inputs with the same codes.
 */
const text = z.string().min(1);
const int = z.number().int().refine(Number.isSafeInteger, { message: 'must be a safe integer' });

const scope = {
  merchantId: text,
  outletId: text,
  source: z.strictObject({ vendor: text, storeId: text }),
};

const SaleLine = z.strictObject({
  id: z.string().optional(),
  name: z.string(),
  sku: z.string().optional(),
  quantity: int,
  unitPriceMinor: int,
});

const SaleDiscountCode = z.strictObject({ code: z.string(), amountMinor: int.optional(), type: z.string().optional() });

export const EarnCommandSchema = z.strictObject({
  ...scope,
  eventId: text,
  occurredAt: z.string(),
  store: Store,
  transaction: z.strictObject({
    id: text,
    totalMinor: int,
    currency: z.string(),
    channel: z.string().optional(),
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
  currency: z.string().min(1).max(10).optional(),
  occurredAt: z.string().optional(),
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
  rewardId: z.string().optional(),
  pointsToRedeem: z.number().optional(),
  orderValueMinor: int.optional(),
});

export const CatalogSyncCommandSchema = z.strictObject({
  ...scope,
  items: z.array(
    z.strictObject({
      externalId: z.string(),
      name: z.string(),
      sku: z.string().optional(),
      category: z.string().optional(),
      priceMinor: int.optional(),
      isActive: z.boolean(),
    }),
  ),
});

/** The read-only outlet lookup (`findOutlet`). */
export const OutletQuerySchema = z.strictObject({ merchantId: text, outletId: text });

// Compile-time check: each schema's output is exactly a port command.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exact = <T extends true>(): T | undefined => undefined;
exact<Same<z.infer<typeof EarnCommandSchema>, EarnCommand>>();
exact<Same<z.infer<typeof ReverseCommandSchema>, ReverseCommand>>();
exact<Same<z.infer<typeof EligibilityCommandSchema>, EligibilityCommand>>();
exact<Same<z.infer<typeof RedeemCommandSchema>, RedeemCommand>>();
exact<Same<z.infer<typeof CatalogSyncCommandSchema>, CatalogSyncCommand>>();
exact<Same<z.infer<typeof OutletQuerySchema>, OutletQuery>>();
