import { loadFixtures, startRecordedVendorServer } from '@loyalty-gateway/core/testing';

/** Clover's recorded payloads of src/fixtures, byte for byte (webhooks are signed over these). */
export const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));

/**
 * core's recorded vendor server playing Clover's REST API: routes keyed by path, or `path?offset=N`
 * when the request pages by offset.
 */
export function startCloverApi() {
  return startRecordedVendorServer({
    key: ({ url }) => {
      const offset = url.searchParams.get('offset');
      return offset === null ? url.pathname : `${url.pathname}?offset=${offset}`;
    },
  });
}
