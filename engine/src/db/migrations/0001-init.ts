import type { Kysely, Migration } from 'kysely';

/**
 * The engine's first schema. Every idempotency rule is a UNIQUE key here: a sale per
 * (source vendor, source store, transaction id), a refund per (source, refund id), a redemption per
 * (source, external transaction id, reward key). Only portable column types are used so the same
 * migration runs on SQLite and PostgreSQL.
 */
async function createReferenceTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('engine_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('default_country_code', 'text', (c) => c.notNull())
    .addColumn('earn_rate', 'text', (c) => c.notNull())
    .addColumn('redemption_rate', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('outlets')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('outlets_pk', ['merchant_id', 'id'])
    .execute();
  await db.schema
    .createTable('rewards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('points_cost', 'bigint')
    .addColumn('discount_minor', 'bigint')
    .addColumn('min_spend_minor', 'bigint')
    .addColumn('stamps_required', 'integer')
    .addColumn('min_points', 'bigint')
    .addColumn('match_skus', 'text', (c) => c.notNull())
    .addColumn('match_keywords', 'text', (c) => c.notNull())
    .execute();
}

async function createMemberTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('membership_id', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('members_membership_uq', ['merchant_id', 'membership_id'])
    .execute();
  for (const column of ['phone', 'email', 'external_id']) {
    await db.schema.createIndex(`members_${column}_uq`).unique().on('members').columns(['merchant_id', column]).execute();
  }
  await db.schema
    .createTable('wallets')
    .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.id'))
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('lifetime_points', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_ref_uq', ['kind', 'ref_id', 'member_id'])
    .execute();
  await db.schema
    .createTable('stamp_cards')
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('reward_id', 'text', (c) => c.notNull().references('rewards.id'))
    .addColumn('stamps_total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stamp_cards_pk', ['member_id', 'reward_id'])
    .execute();
  await db.schema
    .createTable('reward_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('reward_id', 'text', (c) => c.notNull().references('rewards.id'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('earned_sale_id', 'text')
    .addColumn('used_transaction_id', 'text')
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reward_instances_code_uq', ['merchant_id', 'code'])
    .execute();
  await db.schema.createIndex('reward_instances_member_ix').on('reward_instances').columns(['member_id', 'reward_id']).execute();
}

async function createEventTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('outlet_id', 'text', (c) => c.notNull())
    .addColumn('source_vendor', 'text', (c) => c.notNull())
    .addColumn('source_store_id', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.references('members.id'))
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('points_earned', 'bigint', (c) => c.notNull())
    .addColumn('points_reversed', 'bigint', (c) => c.notNull())
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sales_source_tx_uq', ['source_vendor', 'source_store_id', 'transaction_id'])
    .execute();
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_vendor', 'text', (c) => c.notNull())
    .addColumn('source_store_id', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('sale_id', 'text', (c) => c.references('sales.id'))
    .addColumn('member_id', 'text', (c) => c.references('members.id'))
    .addColumn('amount_minor', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('points_reversed', 'bigint', (c) => c.notNull())
    .addColumn('points_recredited', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('refunds_source_refund_uq', ['source_vendor', 'source_store_id', 'refund_id'])
    .execute();
  await db.schema
    .createTable('redemptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('outlet_id', 'text', (c) => c.notNull())
    .addColumn('source_vendor', 'text', (c) => c.notNull())
    .addColumn('source_store_id', 'text', (c) => c.notNull())
    .addColumn('external_transaction_id', 'text', (c) => c.notNull())
    .addColumn('reward_key', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('reward_id', 'text')
    .addColumn('points_requested', 'bigint')
    .addColumn('points_deducted', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('instance_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('redemptions_source_key_uq', ['source_vendor', 'source_store_id', 'external_transaction_id', 'reward_key'])
    .execute();
  await db.schema
    .createTable('catalog_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('outlet_id', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addColumn('category', 'text')
    .addColumn('price_minor', 'bigint')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('catalog_items_outlet_uq', ['merchant_id', 'outlet_id', 'external_id'])
    .execute();
}

export const init: Migration = {
  async up(db) {
    await createReferenceTables(db);
    await createMemberTables(db);
    await createEventTables(db);
  },
};
