import { characterName } from './character-names.js';

/** Dashes and hyphens that read as "-" (NFKC leaves them distinct). */
const DASHES = /[\u02d7\u058a\u05be\u1806\u2010-\u2015\u2043\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d]/gu;
const SPACES = /\p{Zs}/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** What hiddenCharacterProblem refuses: an id stored before it was refused still compares without it. */
const HIDDEN = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u2028\u2029]/gu;

/**
 * What an id looks like to a person, for comparing two ids: invisible characters dropped,
 * compatibility forms folded (NFKC: full-width letters, circled digits, ligatures), every dash
 * as "-" and every space as " ". Case is kept: ids are case-sensitive, and a difference in case
 * is one a person sees. Not a full confusables skeleton (UTS #39): Latin and Cyrillic look-alikes
 * ("а" and "a") stay distinct.
 */
export function lookAlikeKey(value: string): string {
  // Printable ASCII is its own key (NFKC and the foldings change none of it): most ids, compared as they are.
  if (PRINTABLE_ASCII.test(value)) return value;
  return value.replace(HIDDEN, '').normalize('NFKC').replace(DASHES, '-').replace(SPACES, ' ');
}

/** Where two look-alike ids first differ, for a message: "U+2010 HYPHEN where it has U+002D HYPHEN-MINUS, at character 6". */
export function lookAlikeDifference(value: string, existing: string): string {
  const a = Array.from(value);
  const b = Array.from(existing);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const describe = (char: string | undefined) => (char === undefined ? 'nothing' : characterName(char.codePointAt(0)!));
  return `${describe(a[i])} where it has ${describe(b[i])}, at character ${i + 1}`;
}
