import { readFileSync } from 'node:fs';

/** An adapter's recorded fixtures, read from one folder. Tests only. */
export interface Fixtures {
  /** The exact bytes (webhook bodies are signed over these). */
  bytes(name: string): Buffer;
  /** The exact text, UTF-8. */
  text(name: string): string;
  /** Parsed, for recorded API answers and for deriving edge-case bodies. */
  json<T = Record<string, unknown>>(name: string): T;
}

/** `loadFixtures(new URL('./fixtures/', import.meta.url))`: the fixtures beside the calling file. */
export function loadFixtures(folder: URL): Fixtures {
  const bytes = (name: string): Buffer => readFileSync(new URL(name, folder));
  return {
    bytes,
    text: (name) => bytes(name).toString('utf8'),
    json: <T>(name: string) => JSON.parse(bytes(name).toString('utf8')) as T,
  };
}
