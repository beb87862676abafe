import { describe, expect, it } from 'vitest';
import { normalizeEmail, normalizePhone } from './phone.js';

describe('normalizePhone', () => {
  it.each([
    ['+15550100001', '1', '+15550100001'],
    ['+1 (555) 010-0001', '1', '+15550100001'],
    ['+1.555.010.0001', '1', '+15550100001'],
    ['5550100001', '1', '+15550100001'],
    ['05550100001', '1', '+15550100001'],
    ['020 7946 0018', '44', '+442079460018'],
    ['15550100001', '1', '+115550100001'], // country code without + stays local: no match
  ])('%s with country code %s → %s', (raw, cc, expected) => {
    expect(normalizePhone(raw, cc)).toBe(expected);
  });

  it.each([['+1234567'], ['+1234567890123456'], ['+0123456789'], ['phone'], ['+1 555 abc 0001'], ['']])('rejects %s', (raw) => {
    expect(normalizePhone(raw, '1')).toBeNull();
  });

  it('accepts 8 to 15 digits after the +', () => {
    expect(normalizePhone('+12345678', '1')).toBe('+12345678');
    expect(normalizePhone('+123456789012345', '1')).toBe('+123456789012345');
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com'));
});
