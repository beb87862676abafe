/**
 * Earn rates are exact decimal fractions (1, 1.5, 0.1): a rate is kept as numerator / 10^scale
 * and points are computed with BigInt, so floor(total × rate) never suffers float error
 * (19.99 × 1.5 is 29.985 → 29 points, not 29.984999... or 30).
 */
export interface Rate {
  numerator: bigint;
  denominator: bigint;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** Parse a non-negative decimal (number or its text) into an exact fraction. */
export function parseRate(value: number | string): Rate {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`invalid rate: ${text}`);
  const [, whole = '0', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(whole + fraction);
  if (exponent >= 0) return { numerator: digits * 10n ** BigInt(exponent), denominator: 1n };
  return { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

/** The canonical text stored for a rate ("1.5"); round-trips through parseRate. */
export function rateToText(rate: Rate): string {
  const scale = rate.denominator.toString().length - 1;
  const digits = rate.numerator.toString().padStart(scale + 1, '0');
  if (scale === 0) return digits;
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return text.replace(/\.?0+$/, '');
}

/** Points for a sale total in minor units: floor(total / 100 × rate). */
export function pointsFor(totalMinor: number, rate: Rate): number {
  if (totalMinor <= 0) return 0;
  const points = (BigInt(totalMinor) * rate.numerator) / (rate.denominator * 100n);
  return Number(points);
}

/** floor(value × part / whole) in exact integer arithmetic (proportional reversal). */
export function proportion(value: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Number((BigInt(value) * BigInt(part)) / BigInt(whole));
}
