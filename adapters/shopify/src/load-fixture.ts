import { readFileSync } from 'node:fs';

/** A recorded fixture's exact bytes (what Shopify would have sent or answered). */
export function loadFixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}
