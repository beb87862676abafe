import type { CloverUnit } from './auth.js';

/**
 * Clover has no event id: `${merchantId}:${objectId}:${ts}` is stable across Clover's retries of
 * one notification; each reversal envelope adds `:${reversalId}` and the order's refunds.listed
 * `:listed`, so two envelopes of one notification never share an eventId.
 */
export const eventIdOf = (unit: CloverUnit): string => `${unit.merchantId}:${unit.objectId}:${unit.ts}`;
