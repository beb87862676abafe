import { GatewayError, type Handshake } from '@loyalty-gateway/core';
import type { FastifyBaseLogger } from 'fastify';
import type { HandshakeNotes } from './featured-types.js';
import type { HandshakeLimiter } from './handshake-limiter.js';

const VALUE_MAX = 4096;

export interface HandshakeRecording {
  notes: HandshakeNotes | undefined;
  limiter: HandshakeLimiter;
}

/**
 * A vendor's one-time setup call (Clover's verificationCode, Square's test notification): logged
 * at warn with its value so the operator sees it in the logs, and recorded as a vendor note
 * (`GET /admin/vendors/{slug}/notes`). An unsigned one (anyone can send it) is first counted by
 * the limiter: over its limit it is refused 429 and nothing is logged or written. A failed write
 * is logged, never fails the vendor's call.
 */
export async function recordHandshake(
  recording: HandshakeRecording,
  slug: string,
  handshake: Handshake & { signed: boolean; remoteAddress: string },
  log: FastifyBaseLogger,
): Promise<void> {
  if (!handshake.signed) {
    const retryAfter = recording.limiter.take(slug, handshake.remoteAddress);
    if (retryAfter !== null) {
      log.warn({ vendor: slug, remoteAddress: handshake.remoteAddress }, 'unsigned handshake over its limit: refused, not recorded');
      throw new GatewayError('rate_limited', {
        message: `Too many unsigned setup calls for ${slug}; retry after ${retryAfter} s.`,
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }
  log.warn({ vendor: slug, value: handshake.value, signed: handshake.signed }, `featured webhook handshake: ${handshake.note}`);
  if (!recording.notes) return;
  try {
    await recording.notes.recordVendorNote(slug, { kind: `${slug}.handshake`, value: handshake.value.slice(0, VALUE_MAX), note: handshake.note.slice(0, 1000) });
  } catch (error) {
    log.error({ err: error, vendor: slug }, 'could not record the handshake as a vendor note');
  }
}
