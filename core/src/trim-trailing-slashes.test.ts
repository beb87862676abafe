import { describe, expect, it } from 'vitest';
import { trimTrailingSlashes } from './trim-trailing-slashes.js';

describe('trimTrailingSlashes', () => {
  it.each([
    ['https://gw.example.com/', 'https://gw.example.com'],
    ['https://gw.example.com///', 'https://gw.example.com'],
    ['https://gw.example.com/base/', 'https://gw.example.com/base'],
    ['https://gw.example.com', 'https://gw.example.com'],
    ['https://gw.example.com//a', 'https://gw.example.com//a'],
    ['///', ''],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(trimTrailingSlashes(input)).toBe(output);
  });

  it('a long run of slashes before the end is kept as it is (the case a backtracking /\\/+$/ spends quadratic time on)', () => {
    const slashes = `https://x.example${'/'.repeat(40_000)}a`;
    expect(trimTrailingSlashes(slashes)).toBe(slashes);
    expect(trimTrailingSlashes(`${slashes}${'/'.repeat(40_000)}`)).toBe(slashes);
  });
});
