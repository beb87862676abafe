import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { parseSeed } from '../../src/boot/seed-schema.js';

const root = new URL('../../../adapters/', import.meta.url);
const examples = readdirSync(root).filter((slug) => existsSync(new URL(`${slug}/seed.example.json`, root)));

describe("every adapter's seed.example.json is a seed file the gateway accepts as it is", () => {
  it('there is one for each adapter made by the generator (WooCommerce at least)', () => {
    expect(examples).toContain('woocommerce');
  });

  it.each(examples)('%s', (slug) => {
    const parsed = parseSeed(JSON.parse(readFileSync(new URL(`${slug}/seed.example.json`, root), 'utf8')));
    expect('issues' in parsed ? parsed.issues : []).toEqual([]);
    if (!('seed' in parsed)) return;
    expect(parsed.seed.vendors.map((v) => [v.slug, v.tier])).toEqual([[slug, 'featured']]);
    expect(adapters.map((a) => a.slug)).toContain(slug);
  });
});
