import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type GatewayEnvironment = 'development' | 'uat' | 'beta' | 'production';

export interface LoadMasterKeyOptions {
  /** GATEWAY_MASTER_KEY: 32 bytes as base64 (or base64url) or as 64 hex digits. */
  value: string | undefined;
  /** GATEWAY_DATA_DIR: where a development key is kept when no key is configured. */
  dataDir: string;
  environment: GatewayEnvironment;
  warn: (message: string) => void;
}

const KEY_BYTES = 32;
export const MASTER_KEY_FILE = 'master.key';

/** Parse a configured key; throws an Error naming GATEWAY_MASTER_KEY for anything but 32 bytes. */
export function parseMasterKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) {
    const key = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new Error(
    `GATEWAY_MASTER_KEY must be ${KEY_BYTES} bytes encoded as base64 or as 64 hex digits ` +
      `(generate one with: openssl rand -base64 32)`,
  );
}

/**
 * The key that encrypts connection secrets, vendor settings and credentials at rest.
 * Configured: GATEWAY_MASTER_KEY. Absent: refused in production; elsewhere a development key is
 * read from (or generated into) `<dataDir>/master.key`, mode 0600, with a warning.
 */
export async function loadMasterKey(options: LoadMasterKeyOptions): Promise<Buffer> {
  if (options.value !== undefined && options.value.trim() !== '') return parseMasterKey(options.value);
  if (options.environment === 'production') {
    throw new Error('GATEWAY_MASTER_KEY is required in production (32 bytes, base64 or hex: openssl rand -base64 32)');
  }
  const file = join(options.dataDir, MASTER_KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) {
    options.warn(`GATEWAY_MASTER_KEY is not set; using the development key in ${file}. Do not use it in production.`);
    return existing;
  }
  await mkdir(options.dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    // 'wx': never overwrite a key another process wrote meanwhile (it may already encrypt data).
    await writeFile(file, key, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = await readKeyFile(file);
    if (!raced) throw new Error(`GATEWAY_MASTER_KEY is not set and ${file} is not a ${KEY_BYTES}-byte key`);
    options.warn(`GATEWAY_MASTER_KEY is not set; using the development key in ${file}. Do not use it in production.`);
    return raced;
  }
  options.warn(
    `GATEWAY_MASTER_KEY is not set; generated a development key in ${file}. ` +
      'It must not be used in production: set GATEWAY_MASTER_KEY.',
  );
  return key;
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (content.length !== KEY_BYTES) {
    throw new Error(`${file} must hold exactly ${KEY_BYTES} bytes (found ${content.length}); remove it or set GATEWAY_MASTER_KEY`);
  }
  return content;
}
