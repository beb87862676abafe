// Signing for the gateway's generic endpoint (POST /webhooks/generic, and every /v1 call: the earn
// preview, the checkout calls, GET /v1/deliveries), with no dependency but Node's own crypto: copy this file into your integration, or import it. Python: see
// docs/generic-integration.md ("Sign the exact bytes"); both are tested against the gateway's
// verifier (tools/src/vendor-signing.test.ts).
import { createHmac } from 'node:crypto';

/**
 * `v1=` + base64(HMAC-SHA256(timestamp + "." + body, secret)).
 * @param {string} secret the connection secret the operator gave you (whsec_…)
 * @param {string | number} timestamp Unix seconds, the value of X-Service-Timestamp
 * @param {string | Uint8Array} body the exact bytes you send
 * @returns {string}
 */
export function signV1(secret, timestamp, body) {
  return 'v1=' + createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('base64');
}

/**
 * The headers of one signed request: send `body` exactly as given (never re-serialise it after
 * signing), within 300 s of the timestamp.
 * @param {{ secret: string, vendor: string, storeId: string, body: string | Uint8Array, nowSeconds?: number, requestId?: string }} input
 * @returns {Record<string, string>}
 */
export function signedRequestHeaders(input) {
  const timestamp = String(input.nowSeconds ?? Math.floor(Date.now() / 1000));
  return {
    'Content-Type': 'application/json',
    'X-Service-Vendor': input.vendor,
    'X-Service-Store': input.storeId,
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': signV1(input.secret, timestamp, input.body),
    ...(input.requestId ? { 'X-Request-ID': input.requestId } : {}),
  };
}

/**
 * The headers of one signed GET (your delivery log, `GET /v1/deliveries?…`): a GET has no body, so
 * the signature is over the timestamp, a dot and nothing else. The query string is not signed.
 * @param {{ secret: string, vendor: string, storeId: string, nowSeconds?: number, requestId?: string }} input
 * @returns {Record<string, string>}
 */
export function signedGetHeaders(input) {
  const { 'Content-Type': _json, ...headers } = signedRequestHeaders({ ...input, body: '' });
  return headers;
}
