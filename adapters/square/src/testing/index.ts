import { loadFixtures, startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';

/** Square's recorded payloads of src/fixtures, byte for byte (webhook bodies are signed over these). Tests only. */
export const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));

/**
 * core's recorded vendor server playing connect.squareup.com: routes keyed by path + query as
 * sent, each answering its replies in order and repeating the last; anything else is Square's 404.
 */
export function startSquareApi(routes: Record<string, RecordedReply[]>) {
  return startRecordedVendorServer({
    key: ({ url }) => url.pathname + url.search,
    notFound: { status: 404, body: { errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND', detail: 'no such route' }] } },
    routes,
  });
}

export * from './lifecycle.js';
