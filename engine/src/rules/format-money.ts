import { fromMinorUnits, groupDigits } from '@loyalty-gateway/core';

/**
 * The en-US currency formats that differ from ICU's rule for any other code ("XYZ 1,234.50": the
 * code, a no-break space, two decimals): the text before the amount, and the decimals. Read from
 * ICU 78.2 (CLDR 48) through `Intl.NumberFormat('en-US', { style: 'currency' })` for every code of
 * three letters. Not Intl itself at run time: its first call makes ICU's data resident, ~5-6 MiB
 * of RSS per process (docs/benchmarks.md). format-money.test.ts formats every three-letter code
 * both ways and fails where a Node's ICU says otherwise; regenerate the table from its output then.
 */
const FORMATS: Readonly<Record<string, readonly [prefix: string, decimals: 0 | 2 | 3 | 4]>> = {
  ADP: ['ADP\u00a0', 0],
  AFN: ['AFN\u00a0', 0],
  ALL: ['ALL\u00a0', 0],
  AUD: ['A$', 2],
  BHD: ['BHD\u00a0', 3],
  BIF: ['BIF\u00a0', 0],
  BRL: ['R$', 2],
  BYR: ['BYR\u00a0', 0],
  CAD: ['CA$', 2],
  CLF: ['CLF\u00a0', 4],
  CLP: ['CLP\u00a0', 0],
  CNY: ['CN¥', 2],
  COP: ['COP\u00a0', 0],
  DJF: ['DJF\u00a0', 0],
  ESP: ['ESP\u00a0', 0],
  EUR: ['€', 2],
  GBP: ['£', 2],
  GNF: ['GNF\u00a0', 0],
  HKD: ['HK$', 2],
  HUF: ['HUF\u00a0', 0],
  IDR: ['IDR\u00a0', 0],
  ILS: ['₪', 2],
  INR: ['₹', 2],
  IQD: ['IQD\u00a0', 0],
  IRR: ['IRR\u00a0', 0],
  ISK: ['ISK\u00a0', 0],
  ITL: ['ITL\u00a0', 0],
  JOD: ['JOD\u00a0', 3],
  JPY: ['¥', 0],
  KMF: ['KMF\u00a0', 0],
  KPW: ['KPW\u00a0', 0],
  KRW: ['₩', 0],
  KWD: ['KWD\u00a0', 3],
  LAK: ['LAK\u00a0', 0],
  LBP: ['LBP\u00a0', 0],
  LUF: ['LUF\u00a0', 0],
  LYD: ['LYD\u00a0', 3],
  MGA: ['MGA\u00a0', 0],
  MGF: ['MGF\u00a0', 0],
  MMK: ['MMK\u00a0', 0],
  MRO: ['MRO\u00a0', 0],
  MXN: ['MX$', 2],
  NZD: ['NZ$', 2],
  OMR: ['OMR\u00a0', 3],
  PHP: ['₱', 2],
  PKR: ['PKR\u00a0', 0],
  PYG: ['PYG\u00a0', 0],
  RWF: ['RWF\u00a0', 0],
  SLL: ['SLL\u00a0', 0],
  SOS: ['SOS\u00a0', 0],
  STD: ['STD\u00a0', 0],
  SYP: ['SYP\u00a0', 0],
  TMM: ['TMM\u00a0', 0],
  TND: ['TND\u00a0', 3],
  TRL: ['TRL\u00a0', 0],
  TWD: ['NT$', 2],
  UGX: ['UGX\u00a0', 0],
  USD: ['$', 2],
  UYI: ['UYI\u00a0', 0],
  UYW: ['UYW\u00a0', 4],
  VND: ['₫', 0],
  VUV: ['VUV\u00a0', 0],
  XAF: ['FCFA\u00a0', 0],
  XCD: ['EC$', 2],
  XCG: ['Cg.\u00a0', 2],
  XOF: ['F\u202fCFA\u00a0', 0],
  XPF: ['CFPF\u00a0', 0],
  XXX: ['¤', 2],
  YER: ['YER\u00a0', 0],
  ZMK: ['ZMK\u00a0', 0],
  ZWD: ['ZWD\u00a0', 0],
};

const CODE = /^[A-Za-z]{3}$/;

/**
 * Minor units (hundredths, as every amount of the spec) as the cashier reads them, exactly as
 * `Intl.NumberFormat('en-US', { style: 'currency', currency })` writes them: 1250 USD → "$12.50",
 * EUR → "€12.50", CHF → "CHF 12.50", JPY → "¥13" (no decimals, rounded half away from zero).
 * Anything but a code of three letters (which Intl refuses) → "12.50 EURO".
 */
export function formatMoney(minor: number, currency: string): string {
  if (!CODE.test(currency) || !Number.isSafeInteger(minor)) return `${fromMinorUnits(minor).toFixed(2)} ${currency}`;
  const code = currency.toUpperCase();
  const [prefix, decimals] = FORMATS[code] ?? [`${code}\u00a0`, 2];
  const size = Math.abs(minor);
  const units = Math.floor(size / 100);
  const hundredths = size % 100;
  const amount =
    decimals === 0
      ? groupDigits(hundredths >= 50 ? units + 1 : units)
      : `${groupDigits(units)}.${String(hundredths).padStart(2, '0')}${'0'.repeat(decimals - 2)}`;
  return `${minor < 0 ? '-' : ''}${prefix}${amount}`;
}

/** "1 point", "320 points". */
export const formatPoints = (points: number): string => `${points} point${points === 1 ? '' : 's'}`;
