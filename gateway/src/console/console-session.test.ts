import { describe, expect, it } from 'vitest';
import { ConsoleSessions, csrfMatches, readCookie, SESSION_TTL_MS, sessionCookie } from './console-session.js';

describe('console sessions', () => {
  it('expire after 8 hours; a destroyed or unknown id is no session', () => {
    let now = 1_000_000;
    const sessions = new ConsoleSessions(() => now);
    const session = sessions.create();
    expect(session.id).not.toBe(session.csrf);
    expect(sessions.get(session.id)).toBe(session);
    now += SESSION_TTL_MS - 1;
    expect(sessions.get(session.id)).toBe(session);
    now += 1;
    expect(sessions.get(session.id)).toBeNull();
    const other = sessions.create();
    sessions.destroy(other.id);
    expect(sessions.get(other.id)).toBeNull();
    expect(sessions.get(undefined)).toBeNull();
    expect(sessions.get('forged')).toBeNull();
  });

  it('checks the CSRF token exactly', () => {
    const session = new ConsoleSessions().create();
    expect(csrfMatches(session, session.csrf)).toBe(true);
    for (const given of [undefined, '', `${session.csrf}x`, session.csrf.slice(1), ['x']]) expect(csrfMatches(session, given)).toBe(false);
  });

  it('the cookie is HttpOnly, SameSite=Strict, scoped to /console, and Secure when the request came over HTTPS', () => {
    expect(sessionCookie('abc', { secure: true, maxAgeSeconds: 28_800 })).toBe('gw_console=abc; Path=/console; HttpOnly; SameSite=Strict; Max-Age=28800; Secure');
    expect(sessionCookie('abc', { secure: false, maxAgeSeconds: 0 })).not.toContain('Secure');
    expect(readCookie('a=1; gw_console=xyz; b=2', 'gw_console')).toBe('xyz');
    expect(readCookie('gw_consolex=1', 'gw_console')).toBeUndefined();
  });
});
