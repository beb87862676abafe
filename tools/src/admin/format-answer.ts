import { DEFAULT_LAYOUT, isRecord, readable, renderTable, wrapText, type Row, type TableColumn, type TableLayout } from './render-table.js';

export interface AnswerLayout extends TableLayout {
  /** A command's default columns for a list in its answer, by the list's key (`connections`, `runs`). */
  views?: Readonly<Record<string, readonly TableColumn[]>>;
}

/**
 * The gateway's JSON answer as text a person reads (the CLI's default; `--json` prints the JSON):
 * lists as aligned tables that fit `layout.width` (render-table.ts), objects as `key: value` lines
 * whose long values wrap under themselves, nested objects indented. Nothing is dropped, nothing is
 * cut, and no JSON is shown: a nested value is written out in words.
 */
export function formatAnswer(answer: unknown, layout: Partial<AnswerLayout> = {}): string {
  return lines(answer, '', { ...DEFAULT_LAYOUT, ...layout }).join('\n');
}

const isScalar = (value: unknown) => value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
const isTable = (value: unknown): value is Row[] => Array.isArray(value) && value.length > 0 && value.every(isRecord);

/** `key: value`, the value wrapped within the width under its own first character (one line with --wide). */
function keyValue(indent: string, key: string, value: string, layout: TableLayout): string[] {
  const head = `${indent}${key}: `;
  if (layout.wide) return [`${head}${value}`];
  // A key too long to leave 20 columns for its value: the value goes under it, indented.
  const [lead, room] =
    head.length <= layout.width - 20 ? [head, layout.width - head.length] : [`${indent}  `, layout.width - indent.length - 2];
  const wrapped = wrapText(value, room);
  return lead === head
    ? wrapped.map((line, i) => `${i === 0 ? head : ' '.repeat(head.length)}${line}`)
    : [`${indent}${key}:`, ...wrapped.map((line) => `${lead}${line}`)];
}

function lines(value: unknown, indent: string, layout: AnswerLayout, key?: string): string[] {
  if (isTable(value)) return renderTable(value, layout, key ? layout.views?.[key] : undefined, indent);
  if (!isRecord(value))
    return wrapText(readable(value), layout.wide ? Infinity : layout.width - indent.length).map((line) => `${indent}${line}`);
  const out: string[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (isTable(item)) out.push(`${indent}${name} (${item.length}):`, ...lines(item, `${indent}  `, layout, name));
    else if (isRecord(item)) out.push(`${indent}${name}:`, ...lines(item, `${indent}  `, layout, name));
    else if (isScalar(item) || Array.isArray(item)) out.push(...keyValue(indent, name, readable(item), layout));
  }
  return out;
}
