import { JsonObject, operatorId, operatorName, searchId } from '@loyalty-gateway/core';
import { z } from 'zod';
import { RUNS_LIST_MAX } from '../stores/run-history.js';
import { StoreId } from '../stores/store-inputs.js';
import { NOTHING_EARNED_REASONS } from '../webhooks/nothing-earned.js';

const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens')
  .max(64);
/** What an operator creates (NFC, no hidden characters) … */
const identifier = operatorId;
const displayName = operatorName;
/** … and what an operator looks up: as sent, so what a vendor sent is found whatever it holds. */
const searched = searchId;

export const SlugParams = z.strictObject({ slug });
export const IdParams = z.strictObject({ id: searched });

export const EmptyBody = z.strictObject({});
/** POST /admin/deliveries/{id}/replay: `force` replays past a revoked secret or a deactivated connection (journalled). */
export const ReplayBody = z.strictObject({ force: z.boolean().optional() });

/** POST /admin/vendors: a generic vendor; the slug is permanent (the X-Service-Vendor value), the name display only. */
export const NewVendor = z.strictObject({
  slug: slug.refine((s) => s !== 'generic', { message: 'is reserved (/webhooks/generic)' }),
  name: displayName,
});
export const RenameVendor = z.strictObject({ name: displayName });

/** Provider settings or connection credentials: a JSON object, checked as parsed by the adapter's own schema. */
export const SecretObject = JsonObject;

export const ConnectionsQuery = z.strictObject({
  vendor: slug.optional(),
  merchantId: searched.optional(),
});

export const CreateConnectionBody = z.strictObject({
  vendor: slug,
  /** The vendor-side store id, exactly as the vendor sends it (case, spaces and slashes count; NFC; nothing hidden). */
  storeId: StoreId,
  merchantId: identifier,
  outletId: identifier,
  credentials: SecretObject.optional(),
});

export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;
export const DEFAULT_OVERLAP_SECONDS = 86_400;

export const RotateBody = z.strictObject({
  /** How long the previous secret(s) stay valid; 0 ends them now. */
  overlapSeconds: z.number().int().min(0).max(MAX_OVERLAP_SECONDS).default(DEFAULT_OVERLAP_SECONDS),
});

export const RunsQuery = z.strictObject({
  vendor: slug.optional(),
  connectionId: searched.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `a whole number from 1 to ${RUNS_LIST_MAX}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(RUNS_LIST_MAX))
    .optional(),
});

export const TriggerRunBody = z.strictObject({
  vendor: slug,
  connectionId: searched,
});

const isoTime = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'an ISO 8601 date-time')
  .transform((v) => new Date(v));

/** GET /admin/deliveries: the journal's filters (newest first, cursor-paginated). */
export const DeliveriesQuery = z.strictObject({
  vendor: slug.optional(),
  store: searched.optional(),
  connectionId: searched.optional(),
  status: z
    .string()
    .regex(/^[1-5]\d\d$/, 'an HTTP status such as 500')
    .transform(Number)
    .optional(),
  code: searched.optional(),
  since: isoTime.optional(),
  until: isoTime.optional(),
  transactionId: searched.optional(),
  requestId: searched.optional(),
  /** Processed sales that earned nothing: `any`, or one reason. */
  nothingEarned: z.enum(['any', ...NOTHING_EARNED_REASONS], { message: `any, or one of ${NOTHING_EARNED_REASONS.join(', ')}` }).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'a whole number from 1 to 500')
    .transform(Number)
    .pipe(z.number().int().min(1).max(500))
    .optional(),
  cursor: z.string().max(512).optional(),
});
