import { createHmac, randomBytes } from 'node:crypto';
import type { SqlDatabase } from '@loyalty-gateway/storage';
import type { Kysely } from 'kysely';
import { constantTimeEqual } from '@loyalty-gateway/core';

/** How long a console session lasts after sign-in. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export const SESSION_COOKIE = 'gw_console';

export interface ConsoleSession {
  id: string;
  /** The per-session CSRF token every console form carries (derived from the id: nothing else to store). */
  csrf: string;
  expiresAt: number;
  /** A one-shot message for the next page (post → redirect → get). */
  flash?: string | undefined;
}

interface ConsoleSessionsTable {
  id_hash: string;
  created_at: number;
  expires_at: number;
  flash: string | null;
}

const csrfOf = (id: string) => createHmac('sha256', id).update('console-csrf').digest('base64url');

/**
 * Console sessions in the gateway's database, so every process of a scaled-out gateway knows
 * them (a load balancer may send each page to another process) and a restart signs nobody out.
 * Rows hold an HMAC of the id keyed with the admin token, never the cookie itself: a database
 * reader cannot sign in with them, and rotating GATEWAY_ADMIN_TOKEN ends every session. Expired
 * rows go at the next sign-in.
 */
export function createConsoleSessions(options: { database: SqlDatabase<any>; adminToken: string; now?: () => number; ttlMs?: number }) {
  const hashOf = (id: string) => createHmac('sha256', options.adminToken).update(id).digest('hex');
  const db = options.database.db as Kysely<{ gw_console_sessions: ConsoleSessionsTable }>;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  return {
    async create(): Promise<ConsoleSession> {
      const at = now();
      await db.deleteFrom('gw_console_sessions').where('expires_at', '<=', at).execute();
      const id = randomBytes(32).toString('base64url');
      const session: ConsoleSession = { id, csrf: csrfOf(id), expiresAt: at + ttlMs };
      await db
        .insertInto('gw_console_sessions')
        .values({ id_hash: hashOf(id), created_at: at, expires_at: session.expiresAt, flash: null })
        .execute();
      return session;
    },
    async get(id: string | undefined): Promise<ConsoleSession | null> {
      if (!id || id.length > 128) return null;
      const row = await db.selectFrom('gw_console_sessions').selectAll().where('id_hash', '=', hashOf(id)).executeTakeFirst();
      if (!row || Number(row.expires_at) <= now()) return null;
      return { id, csrf: csrfOf(id), expiresAt: Number(row.expires_at), flash: row.flash ?? undefined };
    },
    /** Keeps (or clears) the session's one-shot message. */
    async setFlash(id: string, flash: string | undefined): Promise<void> {
      await db
        .updateTable('gw_console_sessions')
        .set({ flash: flash ?? null })
        .where('id_hash', '=', hashOf(id))
        .execute();
    },
    async destroy(id: string): Promise<void> {
      await db.deleteFrom('gw_console_sessions').where('id_hash', '=', hashOf(id)).execute();
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;

/** Whether a submitted CSRF token is the session's (constant time). */
export const csrfMatches = (session: ConsoleSession, given: unknown): boolean =>
  typeof given === 'string' && constantTimeEqual(given, session.csrf);

/** The value of one cookie in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${options.maxAgeSeconds}${options.secure ? '; Secure' : ''}`;
}
