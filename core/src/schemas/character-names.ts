/**
 * Unicode names of the characters a refusal names (bidirectional controls, invisible characters,
 * look-alike dashes and spaces): Node has no table of names, and a message saying "U+2010" alone
 * leaves the operator to look it up.
 */
const NAMES: Record<number, string> = {
  0x0009: 'CHARACTER TABULATION',
  0x0020: 'SPACE',
  0x002d: 'HYPHEN-MINUS',
  0x00a0: 'NO-BREAK SPACE',
  0x00ad: 'SOFT HYPHEN',
  0x02d7: 'MODIFIER LETTER MINUS SIGN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x058a: 'ARMENIAN HYPHEN',
  0x05be: 'HEBREW PUNCTUATION MAQAF',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x1680: 'OGHAM SPACE MARK',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x1806: 'MONGOLIAN TODO SOFT HYPHEN',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2010: 'HYPHEN',
  0x2011: 'NON-BREAKING HYPHEN',
  0x2012: 'FIGURE DASH',
  0x2013: 'EN DASH',
  0x2014: 'EM DASH',
  0x2015: 'HORIZONTAL BAR',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x2043: 'HYPHEN BULLET',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x2212: 'MINUS SIGN',
  0x2e3a: 'TWO-EM DASH',
  0x2e3b: 'THREE-EM DASH',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfe58: 'SMALL EM DASH',
  0xfe63: 'SMALL HYPHEN-MINUS',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xff0d: 'FULLWIDTH HYPHEN-MINUS',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');

const DIGITS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];

/** The Unicode name of an ASCII letter or digit (what a full-width form or a tag mirrors), else undefined. */
function asciiName(code: number): string | undefined {
  const char = String.fromCharCode(code);
  if (/[A-Z]/.test(char)) return `LATIN CAPITAL LETTER ${char}`;
  if (/[a-z]/.test(char)) return `LATIN SMALL LETTER ${char.toUpperCase()}`;
  if (/\d/.test(char)) return `DIGIT ${DIGITS[code - 0x30]}`;
  return undefined;
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE`; `U+XXXX` alone for a character without a name here. */
export function characterName(code: number): string {
  let name = NAMES[code] ?? asciiName(code);
  if (code >= 0xfe00 && code <= 0xfe0f) name = `VARIATION SELECTOR-${code - 0xfe00 + 1}`;
  else if (code >= 0xe0100 && code <= 0xe01ef) name = `VARIATION SELECTOR-${code - 0xe0100 + 17}`;
  else if (code >= 0xe0000 && code <= 0xe007f) name = asciiName(code - 0xe0000) && `TAG ${asciiName(code - 0xe0000)}`;
  else if (code >= 0xff01 && code <= 0xff5e && !name) name = asciiName(code - 0xfee0) && `FULLWIDTH ${asciiName(code - 0xfee0)}`;
  return name ? `U+${hex(code)} ${name}` : `U+${hex(code)}`;
}
