import { openTestDatabase, testDialects } from '@loyalty-gateway/storage/testing';
import { describe, expect, it } from 'vitest';
import { gatewayMigrations } from '../stores/gateway-migrations.js';
import { createConsoleSessions, csrfMatches, readCookie, SESSION_TTL_MS, sessionCookie } from './console-session.js';

const TOKEN = 'adm_test_token_0123456789abcdef0123';

describe.each(testDialects())('console sessions ($name)', ({ name }) => {
  const open = () => openTestDatabase<any>(name, gatewayMigrations);

  it('expire after 8 hours; a destroyed, unknown or forged id is no session; the table never holds the cookie', async () => {
    const database = await open();
    try {
      let now = 1_000_000;
      const sessions = createConsoleSessions({ database, adminToken: TOKEN, now: () => now });
      const session = await sessions.create();
      expect(session.id).not.toBe(session.csrf);
      expect(await sessions.get(session.id)).toEqual({ id: session.id, csrf: session.csrf, expiresAt: now + SESSION_TTL_MS });
      now += SESSION_TTL_MS - 1;
      expect(await sessions.get(session.id)).not.toBeNull();
      now += 1;
      expect(await sessions.get(session.id)).toBeNull();
      const other = await sessions.create(); // and the expired row is gone
      const rows = await database.db.selectFrom('gw_console_sessions').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(other.id);
      await sessions.destroy(other.id);
      expect(await sessions.get(other.id)).toBeNull();
      for (const forged of [undefined, '', 'forged', 'x'.repeat(10_000)]) expect(await sessions.get(forged)).toBeNull();
    } finally {
      await database.close();
    }
  });

  it('every process of a scaled-out gateway knows a session another signed in, and its one-shot message', async () => {
    const database = await open();
    try {
      const processA = createConsoleSessions({ database, adminToken: TOKEN });
      const processB = createConsoleSessions({ database, adminToken: TOKEN });
      const session = await processA.create();
      await processA.setFlash(session.id, 'Promoted shopify.');
      expect(await processB.get(session.id)).toMatchObject({ csrf: session.csrf, flash: 'Promoted shopify.' });
      await processB.setFlash(session.id, undefined);
      expect((await processA.get(session.id))?.flash).toBeUndefined();
      await processB.destroy(session.id);
      expect(await processA.get(session.id)).toBeNull();
      // Rotating the admin token ends every session.
      const kept = await processA.create();
      expect(await createConsoleSessions({ database, adminToken: `${TOKEN}-rotated` }).get(kept.id)).toBeNull();
    } finally {
      await database.close();
    }
  });
});

describe('console session tokens and cookie', () => {
  it('checks the CSRF token exactly', () => {
    const session = { id: 'id', csrf: 'Zm9vYmFyYmF6cXV4', expiresAt: 0 };
    expect(csrfMatches(session, session.csrf)).toBe(true);
    for (const given of [undefined, '', `${session.csrf}x`, session.csrf.slice(1), ['x']]) expect(csrfMatches(session, given)).toBe(false);
  });

  it('the cookie is HttpOnly, SameSite=Strict, scoped to /console, and Secure when the request came over HTTPS', () => {
    expect(sessionCookie('abc', { secure: true, maxAgeSeconds: 28_800 })).toBe(
      'gw_console=abc; Path=/console; HttpOnly; SameSite=Strict; Max-Age=28800; Secure',
    );
    expect(sessionCookie('abc', { secure: false, maxAgeSeconds: 0 })).not.toContain('Secure');
    expect(readCookie('a=1; gw_console=xyz; b=2', 'gw_console')).toBe('xyz');
    expect(readCookie('gw_consolex=1', 'gw_console')).toBeUndefined();
  });
});
