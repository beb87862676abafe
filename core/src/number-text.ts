/**
 * A number as en-US text with thousands separators ("79,999", "999,999,999,999.99"), the form
 * `toLocaleString('en-US')` gives, without Intl: the first Intl call of a process makes ICU's data
 * resident, several MiB of it (docs/benchmarks.md), and nothing on the gateway's paths needs a
 * locale. `fractionDigits`: exactly that many decimals (toFixed's rounding). For |value| < 10^21.
 */
export function groupDigits(value: number, fractionDigits = 0): string {
  const text = value.toFixed(fractionDigits);
  const sign = text.startsWith('-') ? '-' : '';
  const [whole = '', fraction] = text.slice(sign.length).split('.');
  let grouped = whole.slice(0, ((whole.length - 1) % 3) + 1);
  for (let at = grouped.length; at < whole.length; at += 3) grouped += `,${whole.slice(at, at + 3)}`;
  return fraction === undefined ? sign + grouped : `${sign}${grouped}.${fraction}`;
}
