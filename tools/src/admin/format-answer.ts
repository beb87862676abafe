/**
 * The gateway's JSON answer as text a person reads (the CLI's default; `--json` prints the JSON):
 * lists as aligned tables, objects as `key: value` lines, nested objects indented. Nothing is
 * dropped: a value that is neither text nor a list of records is shown as compact JSON.
 */
export function formatAnswer(answer: unknown): string {
  return lines(answer, '').join('\n');
}

type Row = Record<string, unknown>;
const isRecord = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const scalarText = (value: unknown): string =>
  value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);
const MAX_CELL = 60;

/** Aligned columns of every key whose values are scalars; the rest as JSON under the row. */
export function table(rows: Row[], indent = ''): string[] {
  if (rows.length === 0) return [`${indent}(none)`];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) => {
    const text = isScalar(value) || value === undefined ? scalarText(value) : JSON.stringify(value);
    return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
  };
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const render = (cells: string[]) => `${indent}${cells.map((text, i) => text.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  return [
    render(columns),
    render(widths.map((w) => '-'.repeat(w))),
    ...rows.map((row) => render(columns.map((column) => cell(row[column])))),
  ];
}

function lines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) return value.every(isRecord) ? table(value, indent) : [`${indent}${JSON.stringify(value)}`];
  if (!isRecord(value)) return [`${indent}${scalarText(value)}`];
  const out: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (isScalar(item) || item === undefined) out.push(`${indent}${key}: ${scalarText(item)}`);
    else if (Array.isArray(item) && item.length > 0 && item.every(isRecord))
      out.push(`${indent}${key} (${item.length}):`, ...table(item, `${indent}  `));
    else if (Array.isArray(item)) out.push(`${indent}${key}: ${item.length === 0 ? '(none)' : item.map(scalarText).join(', ')}`);
    else out.push(`${indent}${key}:`, ...lines(item, `${indent}  `));
  }
  return out;
}
