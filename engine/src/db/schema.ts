import type { Generated } from 'kysely';

/**
 * The engine's tables (no `gw_` prefix: that belongs to the gateway, which may share the
 * database). Surrogate keys are random UUID strings so the schema is identical on SQLite and
 * PostgreSQL; timestamps are ISO-8601 text; booleans are 0/1 integers; money is integer minor units.
 */
export interface EngineTables {
  engine_settings: { key: string; value: string };
  merchants: {
    id: string;
    name: string;
    currency: string;
    default_country_code: string;
    /** Exact decimal text ("1.5"): parsed to a fraction, never used as a float. */
    earn_rate: string;
    redemption_rate: string;
    created_at: string;
  };
  outlets: { merchant_id: string; id: string; name: string };
  members: {
    id: string;
    merchant_id: string;
    membership_id: string;
    /** Normalised E.164 (`+15550100001`). */
    phone: string | null;
    /** Trimmed, lower-cased. */
    email: string | null;
    external_id: string | null;
    created_at: string;
  };
  /**
   * A member's points wallet and stamp cards, one table keyed by the member so that an earn's rows
   * share a leaf (migration 0008): the wallet under `reward_id` '' (WALLET in ledger/balances.ts),
   * each stamp card under its reward's id. A wallet row's stamp columns and a card row's point
   * columns stay 0 (checked).
   */
  balances: {
    member_id: string;
    reward_id: string;
    balance: Generated<number>;
    lifetime_points: Generated<number>;
    /** Lifetime stamps; the current card holds `stamps_total mod stampsRequired`. */
    stamps_total: Generated<number>;
    /** Cards completed so far; `cards_completed - cards_redeemed` are redeemable now. */
    cards_completed: Generated<number>;
    cards_redeemed: Generated<number>;
  };
  ledger_entries: {
    id: string;
    member_id: string;
    /** opening · earn · reverse · redeem · recredit · withdraw (a reversal given back) · redebit (a re-credit taken back) */
    kind: string;
    points: number;
    /** The sale, refund, redemption or member the entry belongs to; unique with `kind`. */
    ref_id: string;
    created_at: string;
  };
  rewards: {
    id: string;
    merchant_id: string;
    position: number;
    type: string;
    title: string;
    points_cost: number | null;
    discount_minor: number | null;
    min_spend_minor: number | null;
    stamps_required: number | null;
    min_points: number | null;
    /** JSON arrays of strings. */
    match_skus: string;
    match_keywords: string;
  };
  reward_instances: {
    id: string;
    merchant_id: string;
    member_id: string;
    reward_id: string;
    /** issued_code (stamp cards are counted on their `balances` row, never rows here; migration 0002 folded older rows into counts) */
    origin: string;
    code: string | null;
    /** available · used */
    status: string;
    earned_sale_id: string | null;
    used_transaction_id: string | null;
    used_at: string | null;
    created_at: string;
  };
  sales: {
    id: string;
    merchant_id: string;
    outlet_id: string;
    source_vendor: string;
    source_store_id: string;
    transaction_id: string;
    event_id: string;
    member_id: string | null;
    total_minor: number;
    currency: string;
    points_earned: number;
    points_reversed: number;
    refunded_minor: number;
    occurred_at: string;
    created_at: string;
    /** saleFingerprint of the sale's details; null on sales recorded before migration 0005. */
    fingerprint: string | null;
  };
  refunds: {
    id: string;
    source_vendor: string;
    source_store_id: string;
    refund_id: string;
    transaction_id: string;
    sale_id: string | null;
    member_id: string | null;
    amount_minor: number | null;
    /** PENDING (inside its transaction) · REVERSED · NOTHING_TO_REVERSE · WITHDRAWN (given back, withdraw-refunds.ts) */
    status: string;
    points_reversed: number;
    points_recredited: number;
    created_at: string;
    /** The vendor's time of the reversal, ISO 8601 UTC; null on refunds recorded before migration 0006 (created_at stands in). */
    occurred_at: string | null;
    /** When it was given back; null while it stands. */
    withdrawn_at: string | null;
  };
  redemptions: {
    id: string;
    merchant_id: string;
    outlet_id: string;
    source_vendor: string;
    source_store_id: string;
    external_transaction_id: string;
    /** The reward id, or 'points' for a pointsToRedeem redemption. */
    reward_key: string;
    member_id: string;
    reward_id: string | null;
    points_requested: number | null;
    /** The orderValue the redemption was sent with (minor units), part of what makes a retry identical. */
    order_value_minor: number | null;
    points_deducted: number;
    balance_after: number;
    instance_id: string | null;
    /** committed · reversed */
    status: string;
    created_at: string;
  };
  catalog_items: {
    id: string;
    merchant_id: string;
    outlet_id: string;
    external_id: string;
    name: string;
    sku: string | null;
    category: string | null;
    price_minor: number | null;
    is_active: number;
    created_at: string;
    updated_at: string;
  };
}
