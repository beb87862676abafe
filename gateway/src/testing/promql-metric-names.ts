/** Words of PromQL that are not metric names where an identifier stands. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression (or a Grafana query: `$variables` and `label_values(m, l)`)
 * selects: identifiers that are neither functions, keywords, labels nor durations.
 */
export function promqlMetricNames(expr: string): string[] {
  const text = expr
    .replace(/label_values\(\s*([a-zA-Z_:][\w:]*)\s*,[^)]*\)/g, ' $1 ')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+-?\w+/g, ' ')
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ');
  const names = new Set<string>();
  for (const match of text.matchAll(/[a-zA-Z_:][\w:]*(?=\s*(\()?)/g))
    if (match[1] === undefined && !KEYWORDS.has(match[0]) && !/^\d/.test(match[0])) names.add(match[0]);
  return [...names];
}
