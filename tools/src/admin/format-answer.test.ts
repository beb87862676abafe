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

  it('nothing is dropped and nothing is JSON: nested values in a cell are words, a long cell wraps in its column', () => {
    const error = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const lines = formatAnswer({ runs: [{ id: 'r1', counts: { found: 2 }, error }] }).split('\n');
    expect(lines.join('\n')).toContain('found 2');
    expect(lines.join('\n')).not.toMatch(/[{}"]|…/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    const errorStart = lines[1]!.indexOf('error'); // lines[0] names the list
    expect(
      lines
        .slice(3)
        .map((line) => line.slice(errorStart).trim())
        .join(' '),
    ).toBe(error);
  });

  it('a show answer: a long value wraps under its own start within the width, never cut; one line with --wide', () => {
    const error = `page 3 failed after 3 attempts: ${'the vendor answered 503 Service Unavailable, '.repeat(4)}then gave up`;
    const lines = formatAnswer({ run: { id: 'r1', status: 'failed', error } }, { width: 80 }).split('\n');
    expect(lines.slice(0, 3)).toEqual(['run:', '  id: r1', '  status: failed']);
    expect(lines[3]!.startsWith('  error: page 3 failed')).toBe(true);
    for (const line of lines.slice(4)) expect(line).toMatch(/^ {9}\S/);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(
      lines
        .slice(3)
        .map((line) => line.trim())
        .join(' '),
    ).toBe(`error: ${error}`);
    expect(formatAnswer({ run: { error } }, { width: 80, wide: true }).split('\n')).toEqual(['run:', `  error: ${error}`]);
  });
});
