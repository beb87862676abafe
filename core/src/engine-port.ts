import type { CustomerIdentifier, Store } from './schemas/common.js';
import type { StampUpdate } from './schemas/envelope.js';
import type { EligibilityResult, RedeemResult, RefundResult } from './schemas/checkout.js';
import type { CatalogSyncResult } from './schemas/catalog.js';

/**
 * The one port between the gateway and a loyalty engine. Money is in integer minor units on
 * this side of the JSON edge. Every command carries the merchant and outlet the connection
 * resolved to, and `source` (vendor slug + vendor store id): the scope of every idempotency key.
 *
 * Implementations: the embedded reference engine (@loyalty-gateway/engine), the same engine on a
 * worker thread, and an HTTP client of the engine run as a service. All throw only `EngineError`
 * (a business refusal, rendered as is) and `EngineUnavailableError` (no answer; see its comment).
 * Every implementation accepts `EngineCallOptions` and forwards them to the engine.
 */
export interface LoyaltyEngine {
  /** Earn points and stamps for a finalised sale; exactly once per (source, transactionId). */
  earn(command: EarnCommand, options?: EngineCallOptions): Promise<EarnOutcome>;
  /**
   * A paid order that grew (items added after payment, the added money captured): the sale's total
   * rises to `transaction.totalMinor` and it earns on the added money, once (the total only rises).
   * Featured adapters whose vendor lets a paid order grow only; the generic door never calls it.
   */
  raiseSale(command: EarnCommand, options?: EngineCallOptions): Promise<RaiseSaleResult>;
  /**
   * Read-only: what `earn` would answer for this sale now (processed with its points and each
   * card's progress, or duplicate, with the same warnings and refusals), with nothing committed:
   * no sale row, no wallet or card moved, no code used. A preview, not a promise: an earn that
   * follows answers from the ledger as it is then.
   */
  previewEarn(command: EarnCommand, options?: EngineCallOptions): Promise<EarnOutcome>;
  /** Reverse a sale's earn (and re-credit redemptions against it); exactly once per (source, refundId). */
  reverse(command: ReverseCommand, options?: EngineCallOptions): Promise<RefundResult & { membershipId: string }>;
  /**
   * Give reversals back: every refund (or void, cancellation) recorded for this sale under this
   * source at or before `asOf` whose id the vendor no longer lists is withdrawn, once, and what it
   * took is returned to the wallet (a deleted WooCommerce refund, a voided Clover refund).
   */
  withdrawRefunds(command: WithdrawRefundsCommand, options?: EngineCallOptions): Promise<WithdrawRefundsResult>;
  /**
   * Read-only: the orders (transaction ids) of one source with a reversal standing that was
   * recorded since `since`, newest first, at most `limit`: what a reconciliation pull reads back
   * for vendors that do not mark an order modified when one of its refunds is deleted.
   */
  reversedOrders(query: ReversedOrdersQuery): Promise<string[]>;
  /** Read-only: what the customer could redeem now. */
  eligibility(command: EligibilityCommand, options?: EngineCallOptions): Promise<EligibilityResult>;
  /** Commit a redemption at payment; idempotent per (source, externalTransactionId, reward). */
  redeem(command: RedeemCommand, options?: EngineCallOptions): Promise<RedeemResult>;
  /** Full-snapshot catalog sync for one outlet. */
  catalogSync(command: CatalogSyncCommand, options?: EngineCallOptions): Promise<CatalogSyncResult>;
  /** Read-only: whether the engine has this merchant, and this outlet of it (checked before a connection is made to them). */
  findOutlet(query: OutletQuery): Promise<OutletLookup>;
  /** Read-only: every merchant with its outlets (what connections can be made to), ordered by id. */
  listMerchants(): Promise<MerchantSummary[]>;
  /** Resolves when the engine can serve requests (readiness); rejects otherwise. */
  ping(): Promise<void>;
  /** Release connections and handles. */
  close(): Promise<void>;
}

/** Per-call options; optional, and forwarded unchanged by every implementation. */
export interface EngineCallOptions {
  /**
   * Epoch milliseconds (`Date.now()` clock of the machine the engine runs on) after which the
   * engine must not commit this call: work still running then is rolled back and the call throws
   * EngineUnavailableError. Callers that give up at a deadline pass it here, so that giving up
   * means "not committed" (up to the residual race described in docs/engine-service.md).
   */
  deadline?: number | undefined;
}

export interface OutletQuery {
  merchantId: string;
  outletId: string;
}

/** A merchant as the operator sees it when connecting stores: its settings and outlets. */
export interface MerchantSummary {
  id: string;
  name: string;
  currency: string;
  outlets: Array<{ id: string; name: string }>;
}

/** `outlet` is true only when the merchant exists and has that outlet. */
export interface OutletLookup {
  merchant: boolean;
  outlet: boolean;
}

export interface EngineScope {
  merchantId: string;
  outletId: string;
  /** The connection the request came through: vendor slug and the vendor-side store id. */
  source: { vendor: string; storeId: string };
}

export interface SaleLine {
  id?: string | undefined;
  name: string;
  sku?: string | undefined;
  quantity: number;
  unitPriceMinor: number;
}

export interface SaleDiscountCode {
  code: string;
  amountMinor?: number | undefined;
  type?: string | undefined;
}

export interface EarnCommand extends EngineScope {
  eventId: string;
  occurredAt: string;
  store: Store;
  transaction: {
    id: string;
    totalMinor: number;
    currency: string;
    channel?: string | undefined;
    customer?: CustomerIdentifier | undefined;
    items: SaleLine[];
    discountCodes: SaleDiscountCode[];
  };
}

/** `duplicate` when the ledger already holds this (source, transactionId). */
export interface EarnOutcome {
  status: 'processed' | 'duplicate';
  membershipId: string;
  pointsEarned: number;
  stampsUpdated: StampUpdate[];
  warning: string | null;
  /**
   * On a duplicate whose total, currency, customer or items differ from the sale first recorded
   * under its transaction id (saleFingerprint): when that first sale was received. Nothing of
   * this one was applied.
   */
  conflict?: { firstReceivedAt: string } | undefined;
  /**
   * The sale's fingerprint (saleFingerprint), on a sale processed now or a repeat identical to the
   * one recorded: what the gateway's idempotency cache remembers for the transaction id, taken from
   * here so the gateway's event loop does not compute it a second time. Never part of an answer to
   * a vendor. An engine that does not send it leaves the gateway to compute it.
   */
  fingerprint?: string | undefined;
}

/** `RAISED` when the sale's total rose now; `UNCHANGED` when it already was at least that (or the sale is unknown, or in another currency). */
export interface RaiseSaleResult {
  status: 'RAISED' | 'UNCHANGED';
  /** Points credited now (the added earn less what the sale's refunds reverse of it). */
  pointsEarned: number;
  /** The sale's total now, in minor units (0 when the sale is unknown). */
  totalMinor: number;
  membershipId: string;
}

export interface ReverseCommand extends EngineScope {
  /** The original sale's transaction id. */
  transactionId: string;
  /** Unique id of this refund: the idempotency key of the reversal. */
  refundId: string;
  /** Omitted for a full refund. */
  amountMinor?: number | undefined;
  /**
   * The currency `amountMinor` is in (the webhook's `transaction.currency`); omitted: the sale's
   * (POST /v1/refund). An amount in another currency than the sale's is refused, never compared.
   */
  currency?: string | undefined;
  occurredAt?: string | undefined;
}

/**
 * What a vendor lists for one order now (featured adapters that read the order's whole state:
 * WooCommerce's order, Clover's fetched order). `keep` are the reversal ids the vendor still
 * shows; every other reversal recorded for the sale under this source whose `occurredAt` is at or
 * before `asOf` (the vendor's time of this state) is given back. A reversal recorded after `asOf`
 * is newer than this state, never withdrawn by it, so a stale delivery cannot undo a newer refund.
 */
export interface WithdrawRefundsCommand extends EngineScope {
  /** The sale's transaction id. */
  transactionId: string;
  /** The reversal ids the vendor still lists for this sale. */
  keep: string[];
  /** ISO 8601: when the vendor's state was taken (its modification time). */
  asOf: string;
}

/**
 * `WITHDRAWN` when at least one reversal was given back now; `NOTHING_TO_WITHDRAW` otherwise (a
 * success: the ledger already matches the vendor's list). Exactly once per reversal: a withdrawn
 * one stays withdrawn, and a repeat of its refund id answers ALREADY_PROCESSED without reversing.
 */
export interface WithdrawRefundsResult {
  status: 'WITHDRAWN' | 'NOTHING_TO_WITHDRAW';
  /** The reversal ids given back now, in the order they were recorded. */
  withdrawn: string[];
  /** Earned points the withdrawn reversals had taken back, returned to the wallet. */
  pointsRestored: number;
  /** Points of redemptions re-credited when the sale was fully refunded, taken back now that it no longer is. */
  pointsReDebited: number;
  membershipId: string;
}

export interface ReversedOrdersQuery {
  source: { vendor: string; storeId: string };
  /** ISO 8601: reversals recorded at or after this time. */
  since: string;
  /** At most this many orders (1–1000). */
  limit: number;
}

export interface EligibilityCommand extends EngineScope {
  customer: CustomerIdentifier;
  orderValueMinor?: number | undefined;
}

export interface RedeemCommand extends EngineScope {
  customer: CustomerIdentifier;
  externalTransactionId: string;
  rewardId?: string | undefined;
  pointsToRedeem?: number | undefined;
  orderValueMinor?: number | undefined;
}

export interface CatalogSyncCommand extends EngineScope {
  items: Array<{
    externalId: string;
    name: string;
    sku?: string | undefined;
    category?: string | undefined;
    priceMinor?: number | undefined;
    isActive: boolean;
  }>;
}
