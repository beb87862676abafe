import type { CustomerIdentifier } from '@loyalty-gateway/core';

/**
 * The group commit's key (transaction-batcher.ts run) of a unit that writes a member's wallet:
 * the member as the request names them. Earns and redemptions of one customer identifier get the
 * same key, so a PostgreSQL batch takes their row locks in one order.
 */
export const memberKey = (merchantId: string, customer: CustomerIdentifier): string => `m ${merchantId} ${customer.type} ${customer.value}`;
