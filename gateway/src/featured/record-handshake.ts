import { GatewayError, type Handshake } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { HandshakeNotes } from './featured-types.js';
import { senderAddress, type HandshakeLimiter } from './handshake-limiter.js';

const VALUE_MAX = 4096;
/** The note store keeps 1000 characters; the sender's address is appended after the adapter's note. */
const NOTE_MAX = 900;

export interface HandshakeRecording {
  notes: HandshakeNotes | undefined;
  limiter: HandshakeLimiter;
}

/**
 * A vendor's one-time setup call (Clover's verificationCode, Square's test notification): logged
 * at warn with its value so the operator sees it in the logs, and recorded as a vendor note
 * (`GET /admin/vendors/{slug}/notes`) naming the address it came from, so the operator can tell
 * the vendor's call from forged ones. An unsigned one (anyone can send it) is first counted by
 * the limiter, per address: over its limit it is refused 429 and nothing is logged or written. A
 * failed write is logged, never fails the vendor's call.
 */
export async function recordHandshake(
  recording: HandshakeRecording,
  slug: string,
  handshake: Handshake & { signed: boolean; remoteAddress: string },
  log: FastifyBaseLogger,
): Promise<void> {
  const from = senderAddress(handshake.remoteAddress);
  if (!handshake.signed) {
    const retryAfter = recording.limiter.take(slug, from);
    if (retryAfter !== null) {
      log.warn({ vendor: slug, remoteAddress: from }, 'unsigned handshake over its limit for this address: refused, not recorded');
      throw new GatewayError('rate_limited', {
        message: `Too many unsigned setup calls for ${slug} from this address; retry after ${retryAfter} s.`,
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }
  log.warn(
    { vendor: slug, value: handshake.value, signed: handshake.signed, remoteAddress: from },
    `featured webhook handshake: ${handshake.note}`,
  );
  if (!recording.notes) return;
  const note = `${handshake.note.slice(0, NOTE_MAX)} (${handshake.signed ? 'signed' : 'unsigned'}, from ${from})`;
  try {
    await recording.notes.recordVendorNote(slug, { kind: `${slug}.handshake`, value: handshake.value.slice(0, VALUE_MAX), note });
  } catch (error) {
    log.error({ err: error, vendor: slug }, 'could not record the handshake as a vendor note');
  }
}
