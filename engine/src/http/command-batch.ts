import { z } from 'zod';
import { MAX_BUDGET_MS } from './call-deadline.js';
import type { EngineErrorBody } from './reply-error.js';

/**
 * `POST /v1/commands`: many port calls in one request (docs/engine-service.md, "Batches"). The
 * gateway's HTTP engine client sends the calls of one event-loop turn this way; each call keeps
 * its own budget and gets its own answer, in order, as its single-command endpoint would give it.
 */
export const BATCH_PATH = '/v1/commands';

/** Calls one batch may carry. */
export const MAX_BATCH_CALLS = 1_000;

/**
 * The operations a batch may carry: the paths of the single-command endpoints without `/v1/`
 * (`earn` is `POST /v1/earn`, `raise-sale` is `POST /v1/raise-sale`, …).
 */
export const BATCH_OPERATIONS = [
  'earn',
  'raise-sale',
  'preview-earn',
  'reverse',
  'withdraw-refunds',
  'eligibility',
  'redeem',
  'catalog-sync',
  'find-outlet',
  'reversed-orders',
] as const;
export type BatchOperation = (typeof BATCH_OPERATIONS)[number];

/** One call of a batch: its operation, its budget (relative ms from the batch's arrival) and its command. */
export interface BatchCall {
  op: BatchOperation;
  budgetMs?: number;
  command: unknown;
}

/** What the service answers for one call: the status and body its single-command endpoint would answer. */
export type BatchResult = { status: 200; body: unknown } | { status: number; body: EngineErrorBody };

/** The batch request body: `{ calls: [...] }`; each call is checked on its own (one malformed call fails alone). */
export const CommandBatchSchema = z.strictObject({ calls: z.array(z.unknown()).min(1).max(MAX_BATCH_CALLS) });

/** One call of a batch, as checked before its command is. */
export const BatchCallSchema = z.strictObject({
  op: z.enum(BATCH_OPERATIONS),
  budgetMs: z.number().int().min(0).max(MAX_BUDGET_MS).optional(),
  command: z.unknown(),
});
