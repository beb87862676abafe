import { GatewayError } from '../errors.js';
import { toFieldErrors } from '../validation.js';
import type { AnyAdapter } from './define-adapter.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const unreadable = (adapter: AnyAdapter, why: string) =>
  new GatewayError('invalid_native_payload', { message: `The ${adapter.display.name} payload could not be read: ${why}.` });

/** Raw bytes → a plain value, by the adapter's declared body format (not by Content-Type: vendors send odd ones). */
function decode(adapter: AnyAdapter, raw: Buffer): unknown {
  if (raw.length === 0) throw unreadable(adapter, 'the body is empty');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw unreadable(adapter, 'the body is not UTF-8');
  }
  if (adapter.body === 'form') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    // `json-or-form`: a vendor posting JSON events and one form-encoded call (WooCommerce's ping).
    if (adapter.body === 'json-or-form') return Object.fromEntries(new URLSearchParams(text));
    throw unreadable(adapter, 'the body is not JSON');
  }
}

/**
 * Decode and parse a vendor payload with the adapter's loose native schema. Anything it cannot
 * read is 400 `invalid_native_payload` (with `fields` when the schema says where): the vendor
 * sent something its adapter does not know, and retrying will not change that. Its verdict is
 * revealed only once the request is authenticated (see tryDecodeNative for the reading done earlier
 * to recognise an unsigned handshake).
 */
export function decodeNative(adapter: AnyAdapter, raw: Buffer): unknown {
  const value = decode(adapter, raw);
  const parsed = adapter.native.safeParse(value);
  if (parsed.success) return parsed.data;
  const { fields } = toFieldErrors(value, parsed.error);
  const first = fields[0];
  throw new GatewayError('invalid_native_payload', {
    message: `The ${adapter.display.name} payload could not be read${first ? `: ${first.path} ${first.message}` : ''}.`,
    fields,
  });
}

/** decodeNative's verdict as a value: the payload, or what it threw (kept to be thrown only once the caller is authenticated). */
export type NativeDecoding = { ok: true; native: unknown } | { ok: false; error: unknown };

/** Decode and parse without throwing: the caller decides when (and whether) the failure is revealed. */
export function tryDecodeNative(adapter: AnyAdapter, raw: Buffer): NativeDecoding {
  try {
    return { ok: true, native: decodeNative(adapter, raw) };
  } catch (error) {
    return { ok: false, error };
  }
}
