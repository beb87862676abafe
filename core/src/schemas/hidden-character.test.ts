import { describe, expect, it } from 'vitest';
import { operatorId, operatorName, searchId, toNfc } from './common.js';
import { hiddenCharacterProblem } from './hidden-character.js';

describe('hiddenCharacterProblem', () => {
  it('names the first bidirectional control or invisible character and where it is (in characters, as sent)', () => {
    expect(hiddenCharacterProblem('store-001')).toBeNull();
    expect(hiddenCharacterProblem('Café Ümlaut/1 ☕ 東京')).toBeNull();
    expect(hiddenCharacterProblem('1-erots\u202e')).toBe(
      'must not contain U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control: it changes the order the text is shown in) at character 8',
    );
    expect(hiddenCharacterProblem('☕\u200bx')).toBe('must not contain U+200B ZERO WIDTH SPACE (an invisible character) at character 2');
    expect(hiddenCharacterProblem('😀\ufe0f')).toBe(
      'must not contain U+FE0F VARIATION SELECTOR-16 (an invisible character) at character 2',
    );
    expect(hiddenCharacterProblem('a\u{e0062}')).toBe(
      'must not contain U+E0062 TAG LATIN SMALL LETTER B (an invisible character) at character 2',
    );
    expect(hiddenCharacterProblem('a\u2028b')).toBe('must not contain U+2028 LINE SEPARATOR (an invisible line break) at character 2');
    expect(hiddenCharacterProblem('a\u2064b')).toBe('must not contain U+2064 INVISIBLE PLUS (an invisible character) at character 2');
  });
});

describe('operatorId, operatorName and searchId', () => {
  it('what is created is NFC and refuses hidden characters; what is searched for is taken as sent', () => {
    expect(operatorId.parse('Cafe\u0301')).toBe('Caf\u00e9');
    expect(operatorName.parse('  Cafe\u0301 POS ')).toBe('Caf\u00e9 POS');
    expect(operatorId.safeParse('m\u200d1').error?.issues.map((i) => i.message)).toEqual([
      'must not contain U+200D ZERO WIDTH JOINER (an invisible character) at character 2',
    ]);
    expect(operatorName.safeParse('\ufeffAcme').success).toBe(false); // refused before trimming would hide it
    expect(searchId.parse('m\u200d1')).toBe('m\u200d1');
    expect(searchId.parse('Cafe\u0301')).toBe('Cafe\u0301');
  });

  it('toNfc leaves ASCII as it is (no String#normalize: the production start never loads ICU for it) and composes the rest', () => {
    expect(toNfc('store-001/Main St')).toBe('store-001/Main St');
    expect(toNfc('Cafe\u0301')).toBe('Caf\u00e9');
    expect(toNfc('\u212b')).toBe('\u00c5'); // ANGSTROM SIGN → its canonical equivalent
  });
});
