import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A sealed value could not be opened: wrong master key, tampered data, wrong context or bad format. */
export class SecretBoxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}

/**
 * AES-256-GCM for secrets at rest. Sealed format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 * The optional `context` is bound as additional authenticated data, so a ciphertext copied into
 * another row (another connection's secret, another vendor's settings) does not open there.
 */
export interface SecretBox {
  seal(plaintext: string, context?: string): string;
  open(sealed: string, context?: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`the master key must be ${KEY_BYTES} bytes, got ${key.length}`);
  const masterKey = Buffer.from(key); // private copy: the caller may wipe or reuse its buffer
  return {
    seal(plaintext, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
    },
    open(sealed, context = '') {
      const parts = sealed.split(':');
      const [version, ivText, tagText, ciphertextText] = parts;
      if (parts.length !== 4 || version !== VERSION || ivText === undefined || tagText === undefined || ciphertextText === undefined) {
        throw new SecretBoxError(`unsupported sealed secret format (expected ${VERSION}:<iv>:<tag>:<ciphertext>)`);
      }
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('sealed secret has a bad IV or tag length');
      const decipher = createDecipheriv('aes-256-gcm', masterKey, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new SecretBoxError(
          'cannot decrypt a stored secret: authentication failed (wrong GATEWAY_MASTER_KEY, or the data was altered)',
          { cause: error },
        );
      }
    },
  };
}
