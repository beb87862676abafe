import { readFileSync } from 'node:fs';
import { startRecordedVendorServer } from '@loyalty-gateway/core/testing';

/** The exact bytes of a recorded fixture (webhooks are signed over these). */
export function fixtureText(name: string): string {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
}

/** A recorded fixture, parsed. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

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
