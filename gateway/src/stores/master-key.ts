import { randomBytes } from 'node:crypto';
import { ConfigError } from '@loyalty-gateway/core';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
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

/**
 * Environments that hold real merchants' secrets (beta runs real merchant pilots): they never
 * start without GATEWAY_MASTER_KEY. development and uat may use a generated key.
 */
export const MASTER_KEY_REQUIRED_IN: readonly GatewayEnvironment[] = ['beta', 'production'];

/** Parse a configured key; throws a ConfigError naming GATEWAY_MASTER_KEY for anything but 32 bytes. */
export function parseMasterKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) {
    const key = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new ConfigError(
    `GATEWAY_MASTER_KEY must be ${KEY_BYTES} bytes encoded as base64 or as 64 hex digits ` + `(generate one with: openssl rand -base64 32)`,
  );
}

/**
 * The key that encrypts connection secrets, vendor settings and credentials at rest.
 * Configured: GATEWAY_MASTER_KEY. Absent: refused in beta and production (a generated key sits
 * next to the data it protects); in development and uat a development key is read from (or
 * generated into) `<dataDir>/master.key`, mode 0600, with a warning.
 */
export async function loadMasterKey(options: LoadMasterKeyOptions): Promise<Buffer> {
  if (options.value !== undefined && options.value.trim() !== '') return parseMasterKey(options.value);
  const file = join(options.dataDir, MASTER_KEY_FILE);
  if (MASTER_KEY_REQUIRED_IN.includes(options.environment)) throw await requiredKeyError(options.environment, file);
  const existing = await readKeyFile(file);
  if (existing) {
    options.warn(`GATEWAY_MASTER_KEY is not set; using the development key in ${file}. Do not use it in beta or production.`);
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
    if (!raced) throw new ConfigError(`GATEWAY_MASTER_KEY is not set and ${file} is not a ${KEY_BYTES}-byte key`);
    options.warn(`GATEWAY_MASTER_KEY is not set; using the development key in ${file}. Do not use it in beta or production.`);
    return raced;
  }
  options.warn(
    `GATEWAY_MASTER_KEY is not set; generated a development key in ${file}. ` +
      'It must not be used in beta or production: set GATEWAY_MASTER_KEY.',
  );
  return key;
}

/**
 * Why this environment does not start. A data dir that already holds a generated key (a beta
 * started by an older release generated one) was encrypted with it: the message says how to keep it.
 */
async function requiredKeyError(environment: GatewayEnvironment, file: string): Promise<ConfigError> {
  const found = await access(file).then(
    () => true,
    () => false,
  );
  const keep = found
    ? ` The data dir holds a generated key (${file}); if its data was encrypted with that key, set GATEWAY_MASTER_KEY to it ` +
      `(base64 -w0 ${file}) and keep it in your secret store, then delete the file.`
    : '';
  return new ConfigError(
    `GATEWAY_MASTER_KEY is required in ${environment}: it encrypts real merchants' connection secrets, and a generated key ` +
      `would sit in the data dir beside them. Set it to 32 bytes, base64 or hex (openssl rand -base64 32).${keep}`,
  );
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
    throw new ConfigError(`${file} must hold exactly ${KEY_BYTES} bytes (found ${content.length}); remove it or set GATEWAY_MASTER_KEY`);
  }
  return content;
}
