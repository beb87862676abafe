import type { FastifyBaseLogger } from 'fastify';
import type { HandshakeNotes } from './featured-types.js';

const VALUE_MAX = 4096;

/**
 * A vendor's one-time setup call (Clover's verificationCode, Square's test notification): logged
 * at warn with its value so the operator sees it in the logs, and recorded as a vendor note
 * (`GET /admin/vendors/{slug}/notes`). A failed write is logged, never fails the vendor's call.
 */
export async function recordHandshake(
  notes: HandshakeNotes | undefined,
  slug: string,
  handshake: { note: string; value: string },
  log: FastifyBaseLogger,
): Promise<void> {
  log.warn({ vendor: slug, value: handshake.value }, `featured webhook handshake: ${handshake.note}`);
  if (!notes) return;
  try {
    await notes.recordVendorNote(slug, { kind: `${slug}.handshake`, value: handshake.value.slice(0, VALUE_MAX), note: handshake.note.slice(0, 1000) });
  } catch (error) {
    log.error({ err: error, vendor: slug }, 'could not record the handshake as a vendor note');
  }
}
