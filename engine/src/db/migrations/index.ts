import type { Migration } from 'kysely';
import { init } from './0001-init.js';
import { stampCardCounts } from './0002-stamp-card-counts.js';
import { redemptionOrderValue } from './0003-redemption-order-value.js';
import { refundsSaleIndex } from './0004-refunds-sale-index.js';
import { saleFingerprint } from './0005-sale-fingerprint.js';

/** The engine's own migration table; the gateway keeps its own (`gw_` prefix) in the same database. */
export const ENGINE_MIGRATION_TABLE = 'engine_migrations';

/** Numbered migrations, applied in name order on SQLite and PostgreSQL alike. */
export const engineMigrations: Record<string, Migration> = {
  '0001_init': init,
  '0002_stamp_card_counts': stampCardCounts,
  '0003_redemption_order_value': redemptionOrderValue,
  '0004_refunds_sale_index': refundsSaleIndex,
  '0005_sale_fingerprint': saleFingerprint,
};
