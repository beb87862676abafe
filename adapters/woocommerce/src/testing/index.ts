import { loadFixtures, startRecordedVendorServer } from '@loyalty-gateway/core/testing';

/** WooCommerce's documented payloads of src/fixtures, byte for byte (webhook bodies are signed over these). */
export const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));

/** REST API keys of the recorded site, and the Authorization header WooCommerce expects for them. */
export const credentials = { consumerKey: 'ck_0123456789abcdef', consumerSecret: 'cs_0123456789abcdef' };
export const BASIC = `Basic ${Buffer.from('ck_0123456789abcdef:cs_0123456789abcdef').toString('base64')}`;

/** How the recorded site keys a request: path and page number, and the ids of an `include=` read. */
export const wooApiKey = ({ url }: { url: URL }) =>
  `${url.pathname}?page=${url.searchParams.get('page')}${url.searchParams.has('include') ? `&include=${url.searchParams.get('include')}` : ''}`;

/**
 * core's recorded vendor server playing a site's REST API v3 with the documented pages, keyed by
 * `wooApiKey`; `site` is its home_url('/') (the connection's store id).
 */
export async function startWooApi() {
  const api = await startRecordedVendorServer({ key: wooApiKey });
  return Object.assign(api, { site: `${api.baseUrl}/` });
}
