import { readFileSync } from 'node:fs';

/** The exact bytes of a recorded fixture (webhooks are signed over these). */
export function fixtureText(name: string): string {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
}

/** A recorded fixture, parsed. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}
