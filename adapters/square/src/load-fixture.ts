import { readFileSync } from 'node:fs';

/** The exact bytes of a recorded fixture (webhook bodies are signed over these). Tests only. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

/** A fixture parsed, for recorded API answers and for deriving edge-case bodies. Tests only. */
export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureBytes(name).toString('utf8')) as T;
}
