import { hmacHeaderValue, type AnyAdapter } from '@loyalty-gateway/core';
import { fetchOrExplain, readAnswer, type SendSignedResult } from './send-signed.js';

export interface SendNativeOptions {
  /** The full URL posted to, e.g. http://127.0.0.1:3000/webhooks/woocommerce (signed over for `url+body` schemes). */
  url: string;
  adapter: AnyAdapter;
  /** The secret the adapter's default scheme reads (an app secret in settings, or the connection's). */
  secret: string;
  body: Buffer;
  /** The vendor's other headers (its store header, topic…), as the vendor sends them. */
  headers: Record<string, string>;
  nowSeconds?: number;
}

/**
 * POST a vendor's native payload signed with the adapter's default scheme, as that vendor would:
 * a by-hand smoke test of a featured door (`loyalty-gateway send --path /webhooks/{slug}`).
 */
export async function sendNative(options: SendNativeOptions): Promise<SendSignedResult> {
  const scheme = options.adapter.defaultAuth;
  const headers: Record<string, string> = {
    'content-type': options.adapter.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    ...Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v])),
  };
  if (scheme.kind === 'mtls')
    throw new Error(`${options.adapter.display.name} authenticates with a client certificate: send with curl --cert instead`);
  if (scheme.kind === 'static-header') headers[scheme.header] = `${scheme.prefix}${options.secret}`;
  else {
    if (scheme.signed === 'timestamp+body' && scheme.timestampHeader && !headers[scheme.timestampHeader]) {
      headers[scheme.timestampHeader] = String(options.nowSeconds ?? Math.floor(Date.now() / 1000));
    }
    headers[scheme.header] = hmacHeaderValue(scheme, options.secret, { url: options.url, rawBody: options.body, headers });
  }
  return readAnswer(await fetchOrExplain(options.url, { method: 'POST', headers, body: options.body }));
}
