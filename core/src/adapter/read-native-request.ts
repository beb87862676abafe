import { checkTimestamp } from '../signing.js';
import { AuthRefusal } from './auth/auth-refusal.js';
import { authenticate } from './auth/authenticate.js';
import type { AuthCheck, AuthScheme } from './auth/scheme.js';
import { decodeNative, tryDecodeNative, type NativeDecoding } from './decode-native.js';
import { GatewayError } from '../errors.js';
import { isUnreadableUnit, type AnyAdapter, type UnreadableUnit, type WebhookUnit } from './define-adapter.js';
import type { NativeRequest } from './native-request.js';
import type { Handshake } from './vendor-answer.js';

/** A provider's effective scheme and the secrets it checks a whole request with. */
export interface RequestAuth {
  scheme: AuthScheme;
  /** Settings secrets; 'per-connection' (checked per unit, with each store's secrets); 'none' (mTLS). */
  secrets: string[] | 'per-connection' | 'none';
}

export type NativeReading =
  | { kind: 'handshake'; handshake: Handshake; signed: boolean }
  | { kind: 'units'; native: unknown; units: WebhookUnit<unknown>[]; unreadable: UnreadableUnit[] };

const refuse = (check: AuthCheck): void => {
  if (!check.ok) throw new AuthRefusal(check.reason, check.detail);
};

/**
 * What can be checked of a per-connection scheme before the store (hence the secret) is known:
 * the credential header is there, and a signed timestamp is fresh. The signature itself is
 * verified per unit, with that store's secrets.
 */
function perConnectionPrecheck(scheme: AuthScheme, request: NativeRequest, now: Date): AuthCheck {
  if (scheme.kind === 'mtls') return { ok: true };
  if (!request.headers[scheme.header]) return { ok: false, reason: 'missing_credentials', detail: `missing ${scheme.header} header` };
  if (scheme.kind === 'hmac' && scheme.signed === 'timestamp+body') {
    const verdict = checkTimestamp(
      request.headers[scheme.timestampHeader ?? ''],
      Math.floor(now.getTime() / 1000),
      scheme.toleranceSeconds,
    );
    if (verdict !== 'ok') return { ok: false, reason: 'stale_timestamp', detail: `timestamp ${verdict}` };
  }
  return { ok: true };
}

/**
 * The largest body read as a possible unsigned handshake before authentication. Clover's
 * verification call is `{"verificationCode":"<uuid>"}` (~60 bytes); anything larger is
 * authenticated first, like every other request.
 */
export const UNSIGNED_HANDSHAKE_MAX_BYTES = 1_024;

/**
 * An unsigned setup call the adapter declares (Clover's verificationCode), recognised from a small
 * body alone, or null. Needs no provider settings and no tier: the vendor sends it before any
 * secret exists, often before the operator has promoted the vendor.
 */
export function recogniseUnsignedHandshake(adapter: AnyAdapter, request: NativeRequest): Handshake | null {
  if (adapter.handshake?.auth !== 'unsigned' || request.rawBody.length > UNSIGNED_HANDSHAKE_MAX_BYTES) return null;
  return unsignedHandshake(adapter, tryDecodeNative(adapter, request.rawBody), request);
}

/** A handshake the adapter declares unsigned, recognised from the payload alone; nothing else is learned or revealed. */
function unsignedHandshake(adapter: AnyAdapter, decoding: NativeDecoding, request: NativeRequest): Handshake | null {
  return decoding.ok && adapter.handshake?.auth === 'unsigned' ? adapter.handshake.detect(decoding.native, request) : null;
}

/** The payload, revealed once the request is authenticated (or, per-connection, pre-checked): its value, or what is wrong with it. */
function payloadOf(auth: RequestAuth, decoding: NativeDecoding): unknown {
  if (decoding.ok) return decoding.native;
  if (auth.secrets !== 'per-connection') throw decoding.error;
  // Unverified: the store whose secret would verify it cannot be read, so this is no 400 with details.
  throw new AuthRefusal('bad_signature', `the payload names no store whose secret could verify it (${(decoding.error as Error).message})`);
}

/**
 * The front half of a featured door, shared by the gateway and the adapter test kit, in this order:
 * 1. an **unsigned** handshake the adapter declares (Clover's verificationCode, sent before any
 *    secret exists) is recognised from the payload alone; a payload that does not read is simply
 *    not one. That reading is kept (its value or its error), so the payload is decoded once;
 * 2. authentication over the raw bytes (settings secrets or mTLS; a per-connection scheme gets its
 *    pre-check) → 401 AuthRefusal;
 * 3. decode and the native schema (or the reading of step 1) → 400 invalid_native_payload with fields;
 * 4. a **signed** handshake (Square's test notification);
 * 5. the units (stores) the request concerns; parts of a batch the adapter cannot read are set
 *    aside as `unreadable` (400 only when nothing else is left).
 * Per-connection signatures are then verified per unit by the caller.
 */
export function readNativeRequest(adapter: AnyAdapter, auth: RequestAuth, request: NativeRequest, now: Date): NativeReading {
  // Unauthenticated work is bounded: only a body small enough to be a handshake is read before
  // authentication (a 1 MiB body was decoded and schema-checked for anyone who sent one).
  const early =
    adapter.handshake?.auth === 'unsigned' && request.rawBody.length <= UNSIGNED_HANDSHAKE_MAX_BYTES
      ? tryDecodeNative(adapter, request.rawBody)
      : undefined;
  const handshake = early ? unsignedHandshake(adapter, early, request) : null;
  if (handshake) return { kind: 'handshake', handshake, signed: false };
  if (auth.secrets === 'per-connection') refuse(perConnectionPrecheck(auth.scheme, request, now));
  else refuse(authenticate(auth.scheme, auth.secrets === 'none' ? [] : auth.secrets, request, now));
  const native = payloadOf(auth, early ?? tryDecodeNative(adapter, request.rawBody));
  const late = adapter.handshake?.auth === 'signed' ? adapter.handshake.detect(native, request) : null;
  if (late) return { kind: 'handshake', handshake: late, signed: true };
  return { kind: 'units', native, ...splitUnits(adapter, adapter.units(native, request)) };
}

/**
 * Steps 3 to 5 of readNativeRequest without authentication: what the adapter reads of a payload
 * (its handshake, signed or not, or its units). Only for an operator's preview of a payload through
 * the admin API (never a door): nothing it reads is acted on but the earn preview.
 */
export function readNativePayload(adapter: AnyAdapter, request: NativeRequest): NativeReading {
  const native = decodeNative(adapter, request.rawBody);
  const handshake = adapter.handshake ? adapter.handshake.detect(native, request) : null;
  if (handshake) return { kind: 'handshake', handshake, signed: adapter.handshake?.auth === 'signed' };
  return { kind: 'units', native, ...splitUnits(adapter, adapter.units(native, request)) };
}

/** Readable units, and the ones the adapter could not read; a request with only unreadable ones is 400. */
function splitUnits(adapter: AnyAdapter, all: Array<WebhookUnit<unknown> | UnreadableUnit>) {
  const unreadable = all.filter(isUnreadableUnit);
  const units = all.filter((u): u is WebhookUnit<unknown> => !isUnreadableUnit(u));
  const [first] = unreadable;
  if (units.length === 0 && first) {
    throw new GatewayError('invalid_native_payload', {
      message: `The ${adapter.display.name} payload could not be read: ${first.storeId}: ${first.unreadable}${unreadable.length > 1 ? ` (and ${unreadable.length - 1} more)` : ''}.`,
    });
  }
  return { units, unreadable };
}
