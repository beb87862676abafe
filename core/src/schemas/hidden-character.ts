import { characterName } from './character-names.js';

/** Bidirectional controls: they reorder how the text around them is shown ("1-erots" can read "store-1"). */
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

/** Characters that render as nothing without being format controls (\p{Cf}): fillers, joiners, variation selectors. */
const BLANK = /[\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;
const FORMAT = /\p{Cf}/u;

function hiddenKind(char: string, code: number): string | null {
  if (BIDI.has(code)) return 'a bidirectional control: it changes the order the text is shown in';
  if (FORMAT.test(char) || BLANK.test(char)) return 'an invisible character';
  if (code === 0x2028 || code === 0x2029) return 'an invisible line break';
  return null;
}

/**
 * Why a value an operator types cannot be an id or a name a person reads, or null: the first
 * bidirectional control or invisible character in it (zero-width spaces and joiners, the soft
 * hyphen, U+FEFF, fillers, variation selectors, tags), by name and position (1-based, in
 * characters as sent). Two ids that look the same must not be two things.
 */
export function hiddenCharacterProblem(value: string): string | null {
  let position = 0;
  for (const char of value) {
    position += 1;
    const code = char.codePointAt(0)!;
    const kind = hiddenKind(char, code);
    if (kind) return `must not contain ${characterName(code)} (${kind}) at character ${position}`;
  }
  return null;
}
