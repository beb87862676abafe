import { describe, expect, it } from 'vitest';
import { lookAlikeDifference, lookAlikeKey } from './look-alike-key.js';

describe('lookAlikeKey', () => {
  it('folds what reads the same: dashes, spaces, compatibility forms, invisible characters', () => {
    for (const lookAlike of [
      'store\u2010001',
      'store\u2011001',
      'store\u2012001',
      'store\u2013001',
      'store\u2014001',
      'store\u2015001',
      'store\u2212001',
      'store\ufe63001',
      'store\uff0d001',
      '\uff53\uff54\uff4f\uff52\uff45\uff0d\uff10\uff10\uff11',
      'store-\u2080\u2080\u2081',
      'store\u200b-001',
      'st\u00adore-001',
    ]) {
      expect(lookAlikeKey(lookAlike), lookAlike).toBe('store-001');
    }
    expect(lookAlikeKey('Main\u00a0St\u3000Unit\u20097')).toBe('Main St Unit 7');
  });

  it('keeps what a person tells apart: case, other letters, other scripts', () => {
    expect(lookAlikeKey('STORE-001')).not.toBe(lookAlikeKey('store-001'));
    expect(lookAlikeKey('store-002')).not.toBe(lookAlikeKey('store-001'));
    expect(lookAlikeKey('Caf\u00e9')).toBe(lookAlikeKey('Cafe\u0301'));
  });

  it('says where two look-alikes first differ', () => {
    expect(lookAlikeDifference('store\u2010001', 'store-001')).toBe('U+2010 HYPHEN where it has U+002D HYPHEN-MINUS, at character 6');
    expect(lookAlikeDifference('\uff53tore', 'store')).toBe(
      'U+FF53 FULLWIDTH LATIN SMALL LETTER S where it has U+0073 LATIN SMALL LETTER S, at character 1',
    );
    expect(lookAlikeDifference('store-001', 'store-001\u200b')).toBe('nothing where it has U+200B ZERO WIDTH SPACE, at character 10');
  });
});
