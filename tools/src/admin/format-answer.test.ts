import { describe, expect, it } from 'vitest';
import { formatAnswer } from './format-answer.js';

describe('formatAnswer: what a person reads by default', () => {
  it('a list answer is an aligned table with a header, every scalar field a column', () => {
    expect(
      formatAnswer({
        vendors: [
          { slug: 'acme-pos', tier: 'generic', exists: true },
          { slug: 'woocommerce', tier: 'generic', exists: false },
        ],
      }).split('\n'),
    ).toEqual([
      'vendors (2):',
      '  slug         tier     exists',
      '  -----------  -------  ------',
      '  acme-pos     generic  true',
      '  woocommerce  generic  false',
    ]);
  });

  it('an object answer is key: value lines, nested objects indented, empty lists said so, null as -', () => {
    expect(
      formatAnswer({ connection: { id: 'c1', storeId: 's-1', active: true, lastUsedAt: null }, secret: 'whsec_x', notes: [] }).split('\n'),
    ).toEqual(['connection:', '  id: c1', '  storeId: s-1', '  active: true', '  lastUsedAt: -', 'secret: whsec_x', 'notes: (none)']);
  });

  it('nothing is dropped: nested values in a table cell are compact JSON, long cells are cut with an ellipsis', () => {
    const text = formatAnswer({ runs: [{ id: 'r1', counts: { found: 2 }, error: 'x'.repeat(80) }] });
    expect(text).toContain('{"found":2}');
    expect(text).toContain(`${'x'.repeat(59)}…`);
  });
});
