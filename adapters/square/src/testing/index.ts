import { readFileSync } from 'node:fs';
import { startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';

/** The exact bytes of a recorded fixture (webhook bodies are signed over these). Tests only. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

/** A fixture parsed, for recorded API answers and for deriving edge-case bodies. Tests only. */
export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureBytes(name).toString('utf8')) as T;
}

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
