import type { Connection } from '@loyalty-gateway/core';

/**
 * Keys of the 24-hour gateway cache. Scoped by the connection (one vendor + one store, as the
 * ledger is); the connection id is length-prefixed so no vendor-chosen id can make two different
 * keys collide. A recreated connection only causes misses, and a miss is always safe: the ledger
 * decides.
 */
function key(kind: string, connection: Connection, id: string): string {
  return `${kind}:${connection.id.length}:${connection.id}:${id}`;
}

/** transaction.id of a sale (earn). */
export const saleKey = (connection: Connection, transactionId: string) => key('t', connection, transactionId);

/** refund.id of a reversal. */
export const refundKey = (connection: Connection, refundId: string) => key('r', connection, refundId);

/**
 * eventId, collapsing the vendor's own retries. Per event type too: a vendor that reuses one id
 * for a sale and its refund must not have the refund answered "duplicate" and lost.
 */
export const eventKey = (connection: Connection, eventType: string, eventId: string) => key('e', connection, `${eventType}:${eventId}`);
