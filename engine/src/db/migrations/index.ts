import type { MigrationSet } from '@loyalty-gateway/storage';
import { init } from './0001-init.js';
import { stampCardCounts } from './0002-stamp-card-counts.js';
import { redemptionOrderValue } from './0003-redemption-order-value.js';
import { refundsSaleIndex } from './0004-refunds-sale-index.js';
import { saleFingerprint } from './0005-sale-fingerprint.js';
import { refundWithdrawal } from './0006-refund-withdrawal.js';
import { memberRowsClustered } from './0007-member-rows-clustered.js';
import { memberBalances } from './0008-member-balances.js';

/**
 * The engine's schema: numbered migrations, applied in name order on SQLite and PostgreSQL alike
 * by storage's `migrate(db, engineMigrations)` at boot. Recorded in the engine's own table; the
 * gateway keeps its own (`gw_migrations`) in the same database.
 */
export const engineMigrations: MigrationSet = {
  table: 'engine_migrations',
  migrations: {
    '0001_init': init,
    '0002_stamp_card_counts': stampCardCounts,
    '0003_redemption_order_value': redemptionOrderValue,
    '0004_refunds_sale_index': refundsSaleIndex,
    '0005_sale_fingerprint': saleFingerprint,
    '0006_refund_withdrawal': refundWithdrawal,
    '0007_member_rows_clustered': memberRowsClustered,
    '0008_member_balances': memberBalances,
  },
};
