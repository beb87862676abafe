import { randomBytes } from 'node:crypto';
import { constantTimeEqual } from '@loyalty-gateway/core';

/** How long a console session lasts after sign-in. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** At most this many live sessions are kept; the oldest goes first. */
const MAX_SESSIONS = 1_000;

export const SESSION_COOKIE = 'gw_console';

export interface ConsoleSession {
  id: string;
  /** The per-session CSRF token every console form carries. */
  csrf: string;
  expiresAt: number;
  /** A one-shot message for the next page (post → redirect → get). */
  flash?: string | undefined;
}

/** Console sessions, in this process's memory only (a restart signs everyone out). */
export class ConsoleSessions {
  private readonly sessions = new Map<string, ConsoleSession>();

  constructor(private readonly now: () => number = Date.now, private readonly ttlMs = SESSION_TTL_MS) {}

  create(): ConsoleSession {
    this.prune();
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const session: ConsoleSession = { id: randomBytes(32).toString('base64url'), csrf: randomBytes(32).toString('base64url'), expiresAt: this.now() + this.ttlMs };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): ConsoleSession | null {
    if (!id) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return null;
    }
    return session;
  }

  destroy(id: string): void {
    this.sessions.delete(id);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
  }
}

/** Whether a submitted CSRF token is the session's (constant time). */
export const csrfMatches = (session: ConsoleSession, given: unknown): boolean => typeof given === 'string' && constantTimeEqual(given, session.csrf);

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
