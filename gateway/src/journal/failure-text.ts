import { clipText } from './clip-text.js';
import type { FailureCause } from './failure-cause.js';

/** The bounds of a stored failure cause: its call and what happened, each capped and marked. */
export const FAILURE_LIMITS = Object.freeze({ call: 200, what: 300 });

/** A failure cause as the journal stores it (JSON, each text capped, the duration in whole ms), or null. */
export function clipFailure(cause: FailureCause | null | undefined): string | null {
  if (!cause) return null;
  const ms = cause.ms === null || !Number.isFinite(cause.ms) ? null : Math.max(0, Math.round(cause.ms));
  return JSON.stringify({ call: clipText(cause.call, FAILURE_LIMITS.call), what: clipText(cause.what, FAILURE_LIMITS.what), ms });
}

/** A stored failure cause, read back; null for none (or a value this build cannot read). */
export function parseFailure(text: string | null): FailureCause | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<FailureCause>;
    if (typeof value.call !== 'string' || typeof value.what !== 'string') return null;
    return { call: value.call, what: value.what, ms: typeof value.ms === 'number' ? value.ms : null };
  } catch {
    return null;
  }
}
