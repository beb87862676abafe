import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '@loyalty-gateway/core';

export const ADMIN_TOKEN_FILE = 'admin-token';

/** Where the admin token of this process comes from: GATEWAY_ADMIN_TOKEN, the development file, or nowhere (admin off). */
export interface AdminTokenSource {
  token: string | undefined;
  /** The data dir's token file when the token is the development one (generated or read back), else null. */
  file: string | null;
}

/** The config's rule for a configured token (GatewayConfig's GATEWAY_ADMIN_TOKEN): one read back must meet it too. */
const MIN_LENGTH = 24;

async function readToken(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`${file} is unreadable (${(error as Error).message}); delete it and a new admin token is generated`);
  }
  const token = text.trim();
  if (token.length < MIN_LENGTH || /\s/.test(token))
    throw new ConfigError(
      `${file} does not hold an admin token of at least ${MIN_LENGTH} characters; delete it and a new one is generated`,
    );
  return token;
}

/**
 * Development only, when GATEWAY_ADMIN_TOKEN is unset: the admin token kept in
 * `<dataDir>/admin-token` (0600, beside the demo credentials), generated when the file is missing
 * (a first start, or a data dir of an older build) and read back on every later start, so
 * `/admin`, `/console` and `/metrics` are on from the first `npm start` with a token that stays the
 * same. uat, beta and production never generate one: there an admin token is chosen by the operator.
 */
export async function ensureDevelopmentAdminToken(dataDir: string): Promise<AdminTokenSource> {
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  const existing = await readToken(file);
  if (existing) return { token: existing, file };
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  try {
    // 'wx': another process starting on the same data dir may have written one first; that one stands.
    await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { token: (await readToken(file))!, file };
  }
  return { token, file };
}

/** The start-up lines that say where the console is and how to sign in (development). */
export function adminBanner(source: AdminTokenSource, baseUrl: string): string[] {
  if (!source.token) return [];
  const where = `console ${baseUrl}/console, admin API ${baseUrl}/admin, metrics ${baseUrl}/metrics`;
  if (!source.file) return [`Admin: ${where} (sign in with GATEWAY_ADMIN_TOKEN)`];
  return [
    `Admin: ${where}; admin token ${source.token} (also in ${ADMIN_TOKEN_FILE} in the data dir)`,
    `Use the admin CLI: GATEWAY_ADMIN_TOKEN=${source.token} npm run cli -- admin vendors list --url ${baseUrl}`,
  ];
}
