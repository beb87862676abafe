import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthRefusal } from './auth/auth-refusal.js';
import { AuthScheme } from './auth/scheme.js';
import type { NativeRequest } from './native-request.js';
import type { RequestAuth } from './read-native-request.js';
import { resolveUnits, type UnitConnection } from './resolve-units.js';

const NOW = new Date('2026-01-05T10:00:00Z');
const adapter = { slug: 'acme', display: { name: 'Acme' } } as Parameters<typeof resolveUnits>[0]['adapter'];
const perConnection: RequestAuth = {
  scheme: AuthScheme.parse({
    kind: 'hmac',
    header: 'x-sig',
    signed: 'timestamp+body',
    timestampHeader: 'x-ts',
    secret: { from: 'connection' },
  }),
  secrets: 'per-connection',
};
const body = '{"orders":[]}';

const signedWith = (secret: string, ts = NOW.getTime() / 1000): NativeRequest => {
  const headers = { 'x-ts': String(ts), 'x-sig': createHmac('sha256', secret).update(`${ts}.`).update(body).digest('base64') };
  return { method: 'POST', url: 'https://gw.example.com/webhooks/acme', headers, rawBody: Buffer.from(body), remoteAddress: '127.0.0.1' };
};

function connections(entries: Record<string, UnitConnection>) {
  const asked: string[] = [];
  return { asked, find: (storeId: string) => (asked.push(storeId), Promise.resolve(entries[storeId] ?? null)) };
}

const units = (...stores: string[]) => stores.map((storeId, i) => ({ storeId, unit: i }));

describe('resolveUnits (the featured door and the adapter test kit)', () => {
  it('keeps units whose store has an active connection that verifies the request; skips the rest, unreadable ones first', async () => {
    const db = connections({
      A: { active: true, secrets: ['old', 'sa'] },
      B: { active: true, secrets: ['sb'] },
      C: { active: false, secrets: ['sa'] },
    });
    const result = await resolveUnits(
      { adapter, auth: perConnection, request: signedWith('sa'), now: NOW, find: db.find },
      { units: units('A', 'B', 'C', 'D', 'A'), unreadable: [{ storeId: 'E', unreadable: 'no objectId' }] },
    );
    expect(result.resolved.map((r) => [r.storeId, r.unit])).toEqual([
      ['A', 0],
      ['A', 4],
    ]);
    expect(result.skipped).toEqual([
      { storeId: 'E', reason: 'unreadable', detail: 'no objectId' },
      { storeId: 'B', reason: 'bad_signature' },
      { storeId: 'C', reason: 'unknown_connection' },
      { storeId: 'D', reason: 'unknown_connection' },
    ]);
    expect(db.asked).toEqual(['A', 'B', 'C', 'D']); // once per store
  });

  it("per-connection schemes, when nothing is left: the first failure's own code (stale_timestamp, bad_signature), else unknown_connection", async () => {
    const db = connections({ A: { active: true, secrets: ['sa'] } });
    const stale = signedWith('sa', NOW.getTime() / 1000 - 301);
    await expect(
      resolveUnits({ adapter, auth: perConnection, request: stale, now: NOW, find: db.find }, { units: units('A'), unreadable: [] }),
    ).rejects.toMatchObject({ code: 'stale_timestamp', reason: 'stale_timestamp' });
    await expect(
      resolveUnits(
        { adapter, auth: perConnection, request: signedWith('nope'), now: NOW, find: db.find },
        { units: units('A'), unreadable: [] },
      ),
    ).rejects.toBeInstanceOf(AuthRefusal);
    await expect(
      resolveUnits(
        { adapter, auth: perConnection, request: signedWith('sa'), now: NOW, find: db.find },
        { units: units('Z'), unreadable: [] },
      ),
    ).rejects.toMatchObject({ code: 'unknown_connection', message: 'No active Acme connection for the store(s) in this request.' });
  });

  it('a scheme with provider-level secrets checks no connection secret (the request was verified before)', async () => {
    const db = connections({ A: { active: true, secrets: [] } });
    const settings: RequestAuth = { scheme: perConnection.scheme, secrets: ['provider'] };
    const result = await resolveUnits(
      { adapter, auth: settings, request: signedWith('anything'), now: NOW, find: db.find },
      { units: units('A'), unreadable: [] },
    );
    expect(result).toEqual({ resolved: [{ storeId: 'A', unit: 0, connection: { active: true, secrets: [] } }], skipped: [] });
  });

  it('a request verified with the provider-level secret that names only unconnected stores is accepted, its units skipped unknown_connection (a 401 would make the vendor delete the subscription)', async () => {
    const db = connections({ A: { active: true, secrets: [] }, C: { active: false, secrets: [] } });
    const settings: RequestAuth = { scheme: perConnection.scheme, secrets: ['provider'] };
    const result = await resolveUnits(
      { adapter, auth: settings, request: signedWith('provider'), now: NOW, find: db.find },
      { units: units('Z', 'C'), unreadable: [] },
    );
    expect(result).toEqual({
      resolved: [],
      skipped: [
        { storeId: 'Z', reason: 'unknown_connection' },
        { storeId: 'C', reason: 'unknown_connection' },
      ],
    });
  });
});
