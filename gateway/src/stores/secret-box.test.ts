import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box.js';

const key = randomBytes(32);

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed, for any text', () => {
    const box = createSecretBox(key);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (plaintext, context) => {
        expect(box.open(box.seal(plaintext, context), context)).toBe(plaintext);
      }),
      { numRuns: 200 },
    );
  });

  it('writes the versioned compact format with a fresh 12-byte IV every time', () => {
    const box = createSecretBox(key);
    const a = box.seal('whsec_same');
    const b = box.seal('whsec_same');
    expect(a).not.toBe(b);
    const [version, iv, tag, ciphertext] = a.split(':');
    expect(version).toBe('v1');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
    expect(ciphertext).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('whsec_same');
  });

  it('refuses another key with a clear error naming the master key', () => {
    const sealed = createSecretBox(key).seal('whsec_secret');
    const other = createSecretBox(randomBytes(32));
    expect(() => other.open(sealed)).toThrow(SecretBoxError);
    expect(() => other.open(sealed)).toThrow(/GATEWAY_MASTER_KEY/);
  });

  it('refuses a value sealed for another context (a ciphertext copied into another row)', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('whsec_secret', 'gw_connection_secrets:a');
    expect(box.open(sealed, 'gw_connection_secrets:a')).toBe('whsec_secret');
    expect(() => box.open(sealed, 'gw_connection_secrets:b')).toThrow(SecretBoxError);
  });

  it('detects tampering with the ciphertext or the tag', () => {
    const box = createSecretBox(key);
    const [v, iv, tag, ct] = box.seal('whsec_secret').split(':') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => box.open([v, iv, tag, flip(ct)].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([v, iv, flip(tag), ct].join(':'))).toThrow(SecretBoxError);
  });

  it('rejects unknown versions, malformed values and keys that are not 32 bytes', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('x');
    expect(() => box.open(sealed.replace(/^v1/, 'v2'))).toThrow(/unsupported sealed secret format/);
    expect(() => box.open('whsec_plain')).toThrow(SecretBoxError);
    expect(() => box.open('v1:AAAA:AAAA:AAAA')).toThrow(/IV or tag length/);
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
