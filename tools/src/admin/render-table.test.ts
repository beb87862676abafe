import { describe, expect, it } from 'vitest';
import { field, outputWidth, readable, renderTable, wrapText, type TableColumn } from './render-table.js';

const ID = '3b7c9a52-6a1e-4f0e-9d57-0c1b2a3d4e5f';
const rows = [1, 2, 3].map((n) => ({
  id: ID.replace('3b7c', `${n}b7c`),
  vendor: 'woocommerce',
  storeId: `https://shop-number-${n}.example.com/`,
  note: `Delivery ${n} named a store with no connection yet: connect it with loyalty-gateway admin connections create --vendor woocommerce --store https://shop-number-${n}.example.com/ --merchant <merchant> --outlet <outlet>`,
  activity: { lastSeenAt: '2026-11-20T10:15:00.000Z', lastStatus: 200, lastHour: { requests: 12, refused: 1, failed: 0 } },
  tags: ['a', 'b'],
}));
const widest = (lines: string[]) => Math.max(...lines.map((line) => line.length));

describe('renderTable: tables that fit', () => {
  it.each([120, 100, 80, 60])('every line within %i columns; ids whole on one line; no JSON, nothing cut', (width) => {
    const lines = renderTable(rows, { width, wide: false }, undefined, '  ');
    expect(widest(lines)).toBeLessThanOrEqual(width);
    const text = lines.join('\n');
    expect(text).not.toMatch(/[{}"]|…/);
    for (const row of rows) expect(text).toContain(row.id);
  });

  it('a long cell wraps within its column: its words all there, in order, on the lines of its row', () => {
    const columns: TableColumn[] = [field('id'), field('note')];
    const lines = renderTable(rows.slice(0, 1), { width: 100, wide: false }, columns);
    expect(widest(lines)).toBeLessThanOrEqual(100);
    const noteStart = lines[0]!.indexOf('note');
    const noteLines = lines.slice(2, -1).map((line) => line.slice(noteStart).trim()); // the last line names the fields not shown
    expect(noteLines.length).toBeGreaterThan(1);
    expect(noteLines.join(' ')).toBe(rows[0]!.note);
    // The id is on the row's first line only, the note's continuation lines leave its column blank.
    expect(lines[2]!.startsWith(rows[0]!.id)).toBe(true);
    expect(lines[3]!.slice(0, noteStart).trim()).toBe('');
  });

  it('nested values are words: an object as key value pairs, a nested one in parentheses, a list with commas', () => {
    const text = renderTable(rows.slice(0, 1), { width: 1000, wide: false }).join('\n');
    expect(text).toContain('lastSeenAt 2026-11-20T10:15:00.000Z, lastStatus 200, lastHour (requests 12, refused 1, failed 0)');
    expect(text).toContain('a, b');
    expect(readable({ a: null, b: [], c: [{ id: 'x' }, { id: 'y' }] })).toBe('a -, b (none), c id x; id y');
  });

  it('columns with no room are left out last first, and named under the table with --wide to see them', () => {
    const columns: TableColumn[] = [field('id'), field('vendor'), field('storeId', 'store'), field('note')];
    const lines = renderTable(rows, { width: 90, wide: false }, columns, '  ');
    expect(widest(lines)).toBeLessThanOrEqual(90);
    expect(lines[0]).toMatch(/^ {2}id +vendor +store$/);
    expect(lines.at(-1)).toBe('  (note: no room in 90 columns; --wide shows every field)');
  });

  it('columns marked keep stay, words whole, while the others give way (a long store URL is never broken while a column can go)', () => {
    const columns: TableColumn[] = [
      field('id', 'id', { keep: true }),
      field('vendor'),
      field('storeId', 'store', { keep: true }),
      field('tags'),
      field('note', 'note', { keep: true }),
    ];
    const long = rows.map((row) => ({ ...row, storeId: `${row.storeId}with/a/long/path/` }));
    const lines = renderTable(long, { width: 130, wide: false }, columns, '  ');
    expect(widest(lines)).toBeLessThanOrEqual(130);
    expect(lines[0]).toMatch(/^ {2}id +store +note$/);
    for (const row of long) expect(lines.join('\n')).toContain(`${row.id}  ${row.storeId}`);
    expect(lines.at(-1)).toBe('  (vendor, tags: no room in 130 columns; --wide shows every field)');
  });

  it("a view's fields not shown are named under it", () => {
    const lines = renderTable(rows, { width: 120, wide: false }, [field('id'), field('vendor')]);
    expect(lines.at(-1)).toBe('(--wide adds storeId, note, activity, tags)');
  });

  it('--wide: every field of every row as a column, one line per row, whatever the width', () => {
    const lines = renderTable(rows, { width: 80, wide: true }, [field('id')]);
    expect(lines).toHaveLength(2 + rows.length);
    expect(lines[0]).toMatch(/^id +vendor +storeId +note +activity +tags$/);
    expect(widest(lines)).toBeGreaterThan(200);
    expect(lines.join('\n')).not.toMatch(/[{}"]|…/);
  });
});

describe('the width the output may take', () => {
  it("a terminal's columns; 120 when the output is not a terminal (a pipe, a file)", () => {
    expect(outputWidth({ isTTY: true, columns: 87 })).toBe(87);
    expect(outputWidth({ isTTY: false, columns: 87 })).toBe(120);
    expect(outputWidth({})).toBe(120);
    expect(outputWidth({ isTTY: true, columns: 20 })).toBe(40);
  });

  it('wrapText breaks between words, and inside a word longer than the line', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghij kl', 4)).toEqual(['abcd', 'efgh', 'ij', 'kl']);
  });
});
