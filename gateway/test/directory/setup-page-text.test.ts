import { describe, expect, it } from 'vitest';
import { adapters } from '../../src/adapters.js';
import { renderDirectory, renderSetupPage } from '../../src/directory/render-directory.js';

/** Each paragraph of the page as a person reads it: tags dropped, entities and spaces folded. */
const paragraphs = (page: string): string[] =>
  (page.match(/<p[ >][\s\S]*?<\/p>/g) ?? []).map((p) =>
    p
      .replace(/<[^>]+>/g, ' ')
      .replace(/&[a-z]+;|&#\d+;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

/**
 * Runs of three words said twice in one paragraph ("exactly as WooCommerce sends it … exactly as
 * WooCommerce shows it"); a CLI command may be repeated on purpose.
 */
function repeatedInParagraph(page: string): string[] {
  const found: string[] = [];
  for (const paragraph of paragraphs(page)) {
    const list =
      paragraph
        .replace(/npm run cli -- [^)]*/g, ' ')
        .toLowerCase()
        .match(/[\p{L}\p{N}'-]+/gu) ?? [];
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= list.length; i += 1) {
      const run = list.slice(i, i + 3);
      if (seen.has(run.join(' '))) found.push(`"${run.join(' ')}" in: ${paragraph}`);
      seen.add(run.join(' '));
    }
  }
  return found;
}

describe("the directory's setup pages read as written for a person", () => {
  it.each(adapters.map((a) => [a.slug, a] as const))('%s: no phrase said twice in one paragraph', (_slug, adapter) => {
    const page = renderSetupPage(adapter, { url: 'https://loyalty.example.com/webhooks/x', source: 'publicUrl' });
    expect(repeatedInParagraph(page)).toEqual([]);
    // The label in parentheses after what it labels ("the Clover merchant id (Clover merchant id)").
    expect(paragraphs(page).join(' ')).not.toContain(`(${adapter.setup.storeIdLabel})`);
  });

  it('a credential key is one word: the table never breaks it inside (the Key column broke consumerSecret)', () => {
    const woo = adapters.find((a) => a.slug === 'woocommerce')!;
    const page = renderSetupPage(woo, { url: 'https://loyalty.example.com/webhooks/woocommerce', source: 'publicUrl' });
    expect(page).toContain('<td><code>consumerSecret</code></td>');
    expect(page).toMatch(/td code \{[^}]*white-space: nowrap/);
    expect(page).toMatch(/td code \{[^}]*overflow-wrap: normal/);
  });

  it('the footer links the partner API documentation it names', () => {
    for (const page of [renderDirectory(adapters), renderSetupPage(adapters[0]!, { url: null, source: 'unconfigured' })])
      expect(page).toContain('<a href="/openapi.json">partner API documentation</a>');
  });
});
