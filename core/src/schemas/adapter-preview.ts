import { z } from 'zod';
import { searchId } from './common.js';
import { EarnPreview } from './earn-preview.js';
import { FeaturedEnvelope } from './featured-envelope.js';

/**
 * `POST /admin/adapters/{slug}/preview`'s body: a native payload as the vendor would send it, as
 * JSON (`payload`, sent as its JSON text) or as the exact body text (`body`), with the headers the
 * vendor would send; `store` picks the connection every unit is mapped for (else each unit's own
 * store's); `fetchBack` lets the mapping call the vendor's API with that connection's credentials.
 */
export const AdapterPreviewRequest = z
  .strictObject({
    payload: z.unknown().optional(),
    body: z.string().optional(),
    headers: z.record(z.string().max(256), z.string().max(16_384)).optional(),
    store: searchId.optional(),
    fetchBack: z.boolean().optional(),
  })
  .refine((request) => (request.payload === undefined) !== (request.body === undefined), {
    message: 'send the payload either as JSON (payload) or as its exact text (body), not both',
    path: ['payload'],
  });
export type AdapterPreviewRequest = z.infer<typeof AdapterPreviewRequest>;

/** Why a failure happened: the call (a vendor API's host and path template, an engine operation), what it answered, how long it took. */
export const CallFailure = z.strictObject({ call: z.string(), what: z.string(), ms: z.number().nullable() });

/** One canonical event a unit mapped to: its earn preview, or the ledger's refusal as the door would report it. */
export const PreviewedEvent = z.strictObject({
  envelope: FeaturedEnvelope,
  preview: EarnPreview.optional(),
  refused: z.strictObject({ code: z.string(), message: z.string() }).optional(),
});

/** One unit (store) of the payload: the connection it was mapped for, the adapter's note, its events, or why it could not be. */
export const PreviewedUnit = z.strictObject({
  storeId: z.string(),
  connection: z.strictObject({ id: z.string(), storeId: z.string(), merchantId: z.string(), outletId: z.string() }).nullable(),
  note: z.string().nullable(),
  events: z.array(PreviewedEvent),
  error: z.strictObject({ code: z.string(), message: z.string(), cause: CallFailure.nullable() }).nullable(),
});

/** The answer of `POST /admin/adapters/{slug}/preview`: nothing of it was committed. */
export const AdapterPreview = z.strictObject({
  adapter: z.string(),
  /** A setup call the adapter recognises (nothing else is mapped). */
  handshake: z.strictObject({ note: z.string() }).nullable(),
  units: z.array(PreviewedUnit),
  /** Parts of a batch the adapter could not read. */
  unreadable: z.array(z.strictObject({ storeId: z.string(), detail: z.string() })),
});
export type AdapterPreview = z.infer<typeof AdapterPreview>;
export type PreviewedUnit = z.infer<typeof PreviewedUnit>;
export type PreviewedEvent = z.infer<typeof PreviewedEvent>;
