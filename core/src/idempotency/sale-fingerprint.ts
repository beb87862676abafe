import { hash } from 'node:crypto';
import type { EarnCommand } from '../engine-port.js';

/** What a sale is, for telling a vendor's retry from another sale sent under the same transaction id. */
export type SaleDetails = Pick<EarnCommand['transaction'], 'totalMinor' | 'currency' | 'customer' | 'items'>;

/**
 * A canonical fingerprint of a sale's total, currency, customer and items (32 hex characters of
 * SHA-256). Computed from the parsed values, never the raw bytes: a retry re-serialised by the
 * vendor (other key order, spacing, 12.5 vs 12.50) has the same fingerprint. Item order counts (a
 * till sends its lines in order); the event id, occurredAt, channel, store name and discount codes
 * do not (a retry may carry a new event id or send time).
 */
export function saleFingerprint(sale: SaleDetails): string {
  const canonical = [
    sale.totalMinor,
    sale.currency,
    sale.customer ? [sale.customer.type, sale.customer.value] : null,
    sale.items.map((item) => [item.id ?? null, item.name, item.sku ?? null, item.quantity, item.unitPriceMinor]),
  ];
  // crypto.hash: one call, no Hash object (about half the cost of createHash().update().digest()).
  return hash('sha256', JSON.stringify(canonical), 'hex').slice(0, 32);
}
