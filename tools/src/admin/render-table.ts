/**
 * The CLI's tables, shared by every admin command that prints a list: aligned columns that fit
 * the terminal (120 columns when the output is not a terminal), cells that wrap instead of being
 * cut, nested values in words (never JSON), and `--wide` for every field of every row on one line.
 */

export type Row = Record<string, unknown>;

/** How wide the output may be, and whether every column is wanted whatever the width. */
export interface TableLayout {
  /** Columns available (the terminal's width, or DEFAULT_WIDTH). */
  width: number;
  /** Every field as a column, each cell on one line, whatever the width (`--wide`). */
  wide: boolean;
}

/** One column of a command's default view: its header, how a row gives its value, and the fields it shows. */
export interface TableColumn {
  header: string;
  value: (row: Row) => unknown;
  /** The row's fields this column shows (its header when omitted): what is not shown is named under the table. */
  fields?: readonly string[];
  /** Kept when the columns do not fit (wrapped, or its words broken, instead): what the next command needs, or why. */
  keep?: boolean;
}

/** A column showing one field as it is. */
export const field = (key: string, header = key, options: { keep?: boolean } = {}): TableColumn => ({
  header,
  value: (row) => row[key],
  fields: [key],
  ...options,
});

/** What a table fits in when the output is not a terminal (a pipe, a file, CI's log). */
export const DEFAULT_WIDTH = 120;
export const DEFAULT_LAYOUT: TableLayout = { width: DEFAULT_WIDTH, wide: false };

/** A terminal's width when the output is one, else DEFAULT_WIDTH; never below 40. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.max(40, stream.columns) : DEFAULT_WIDTH;
}

const GAP = '  ';
/** Words up to this long (ids, store URLs, times) keep their column wide enough to stay on one line. */
const WHOLE_WORD = 40;
/** A column of text wraps no narrower than this: a row three words high reads worse than a column left to --wide. */
const NARROWEST = 20;

export const isRecord = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value as words a person reads: null as -, lists joined with commas, an object as
 * `key value` pairs (a nested object in parentheses), so nothing is JSON and nothing is dropped.
 */
export function readable(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(readable).join(value.some(isRecord) ? '; ' : ', ');
  return Object.entries(value)
    .map(([key, item]) => (isRecord(item) ? `${key} (${readable(item)})` : `${key} ${readable(item)}`))
    .join(', ');
}

/** `text` in lines of at most `width` characters, broken between words; a word longer than a line is broken inside. */
export function wrapText(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    let rest = word;
    if (line !== '' && line.length + 1 + rest.length <= limit) {
      line += ` ${rest}`;
      continue;
    }
    if (line !== '') lines.push(line);
    while (rest.length > limit) {
      lines.push(rest.slice(0, limit));
      rest = rest.slice(limit);
    }
    line = rest;
  }
  lines.push(line);
  return lines;
}

/**
 * Column widths that fit `budget`: the widest column gives way first, down to its minimum. Null
 * when even the minimums do not fit.
 */
function fitWidths(natural: number[], minimum: number[], budget: number): number[] | null {
  const widths = [...natural];
  let total = widths.reduce((sum, w) => sum + w, 0);
  while (total > budget) {
    let widest = -1;
    for (let i = 0; i < widths.length; i += 1) if (widths[i]! > minimum[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) return null;
    widths[widest]! -= 1;
    total -= 1;
  }
  return widths;
}

/**
 * `rows` as an aligned table within `layout.width` less `indent`. By default the `columns` given
 * (every field when none): a cell too long for its column wraps onto more lines of its row, and
 * when the columns do not fit even so, the last ones not marked `keep` are left out and named
 * under the table; only then is a word (a long store URL) broken. `wide`: every field of every
 * row as a column, one line per row, whatever the width.
 */
export function renderTable(rows: Row[], layout: TableLayout, columns?: readonly TableColumn[], indent = ''): string[] {
  if (rows.length === 0) return [`${indent}(none)`];
  const all: TableColumn[] = [...new Set(rows.flatMap((row) => Object.keys(row)))].map((key) => ({
    header: key,
    value: (row) => row[key],
  }));
  const chosen = layout.wide || !columns ? all : [...columns];
  const cells = rows.map((row) => chosen.map((column) => readable(column.value(row))));
  const natural = chosen.map((column, i) => Math.max(column.header.length, ...cells.map((row) => row[i]!.length)));
  let shown = chosen.map((_, i) => i);
  let widths = natural;
  if (!layout.wide) {
    // Short columns never wrap; long text wraps no narrower than NARROWEST; words stay whole (or, last, up to WHOLE_WORD).
    const minimumWith = (cap: number) =>
      chosen.map((column, i) =>
        Math.max(
          column.header.length,
          Math.min(natural[i]!, NARROWEST),
          ...cells.map((row) => Math.max(...row[i]!.split(' ').map((word) => Math.min(cap, word.length)))),
        ),
      );
    const fit = (set: number[], minimum: number[]) =>
      fitWidths(
        set.map((i) => natural[i]!),
        set.map((i) => minimum[i]!),
        layout.width - indent.length - GAP.length * (set.length - 1),
      );
    const whole = minimumWith(Infinity);
    let fitted = fit(shown, whole);
    for (
      let drop = shown.findLast((i) => !chosen[i]!.keep);
      !fitted && drop !== undefined;
      drop = shown.findLast((i) => !chosen[i]!.keep)
    ) {
      shown = shown.filter((i) => i !== drop);
      fitted = fit(shown, whole);
    }
    const broken = minimumWith(WHOLE_WORD);
    if (!fitted) fitted = fit(shown, broken);
    while (!fitted && shown.length > 1) {
      shown = shown.slice(0, -1);
      fitted = fit(shown, broken);
    }
    widths = fitted ?? [Math.max(1, Math.min(natural[shown[0]!]!, layout.width - indent.length))];
  }
  const renderRow = (texts: string[]): string[] => {
    const wrapped = shown.map((column, i) => (layout.wide ? [texts[column]!] : wrapText(texts[column]!, widths[i]!)));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, line) =>
      `${indent}${wrapped.map((lines, i) => (lines[line] ?? '').padEnd(widths[i]!)).join(GAP)}`.trimEnd(),
    );
  };
  const out = [
    ...renderRow(chosen.map((column) => column.header)),
    `${indent}${widths.map((w) => '-'.repeat(w)).join(GAP)}`,
    ...cells.flatMap(renderRow),
  ];
  const left = chosen.filter((_, i) => !shown.includes(i)).map((column) => column.header);
  const covered = new Set(shown.flatMap((i) => chosen[i]!.fields ?? [chosen[i]!.header]));
  const hidden = layout.wide ? [] : all.map((column) => column.header).filter((key) => !covered.has(key));
  const note =
    left.length > 0
      ? `(${left.join(', ')}: no room in ${layout.width} columns; --wide shows every field)`
      : hidden.length > 0
        ? `(--wide adds ${hidden.join(', ')})`
        : null;
  if (note) out.push(...wrapText(note, layout.width - indent.length).map((line) => `${indent}${line}`));
  return out;
}
