import { z } from 'zod';
import { StampUpdate } from './envelope.js';

/**
 * What a sale would do now (`POST /v1/earn/preview`, an extension of the partner API): the
 * webhook's answer with its status put in the conditional — `would_process`, `would_be_duplicate`,
 * `ignored` (a void, an event type the gateway does not know), or `not_previewed` (a refund:
 * previews are of sales).
 */
export const EarnPreviewStatus = z.enum(['would_process', 'would_be_duplicate', 'ignored', 'not_previewed']);
export type EarnPreviewStatus = z.infer<typeof EarnPreviewStatus>;

/** The answer of `POST /v1/earn/preview`: nothing of it was committed. */
export const EarnPreview = z.strictObject({
  status: EarnPreviewStatus,
  membershipId: z.string(),
  pointsEarned: z.number().int(),
  stampsUpdated: z.array(StampUpdate),
  warning: z.string().nullable(),
});
export type EarnPreview = z.infer<typeof EarnPreview>;
