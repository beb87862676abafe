import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

/**
 * A kept generic delivery is replayed only if its connection would accept it now: still active,
 * and its signature still verifying with a secret the connection holds. An operator may force it,
 * and the replay's entry says so.
 */
describe.each(testDialects())('a replay re-checks the present ($name)', ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
  });
  afterEach(() => t.close());

  const failedDelivery = async (id: string) => {
    fault.down = true;
    const raw = bodyOf(sale({ id }));
    const response = await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    fault.down = false;
    expect(response.statusCode).toBe(500);
    await t.journal!.flush();
    const [entry] = (await t.journal!.list({ transactionId: id })).deliveries;
    return entry!;
  };
  const connectionId = async () => (await t.store.find('acme-pos', 'store-001'))!.id;

  it('refused (409) once the signing secret was revoked with no overlap; replayed with force, journalled as forced', async () => {
    const entry = await failedDelivery('RECHECK-1');
    const rotated = await t.admin('POST', `/admin/connections/${await connectionId()}/rotate`, { overlapSeconds: 0 });
    expect(rotated.statusCode).toBe(200);
    const refused = await t.admin('POST', `/admin/deliveries/${entry.id}/replay`);
    expect(refused.json()).toMatchObject({
      statusCode: 409,
      code: 'replay_not_available',
      message: expect.stringContaining('signing secret'),
    });
    const forced = await t.admin('POST', `/admin/deliveries/${entry.id}/replay`, { force: true });
    expect(forced.statusCode).toBe(200);
    expect(forced.json()).toMatchObject({ replay: { replayOf: entry.id, forced: true }, result: { status: 'processed' } });
    const story = (await t.admin('GET', `/admin/deliveries/${entry.id}`)).json();
    expect(story.replays).toHaveLength(1);
    expect(story.replays[0]).toMatchObject({ replayForced: true, replayOf: entry.id });
  });

  it('while the old secret is still within its overlap the replay needs no force', async () => {
    const entry = await failedDelivery('RECHECK-2');
    expect((await t.admin('POST', `/admin/connections/${await connectionId()}/rotate`, { overlapSeconds: 3600 })).statusCode).toBe(200);
    const replayed = await t.admin('POST', `/admin/deliveries/${entry.id}/replay`);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().replay.forced).toBe(false);
  });

  it('refused while the connection is deactivated; force replays it anyway, journalled', async () => {
    const entry = await failedDelivery('RECHECK-3');
    expect((await t.admin('POST', `/admin/connections/${await connectionId()}/deactivate`)).statusCode).toBe(200);
    expect((await t.admin('POST', `/admin/deliveries/${entry.id}/replay`)).json()).toMatchObject({
      statusCode: 409,
      code: 'replay_not_available',
      message: expect.stringContaining('deactivated'),
    });
    const forced = await t.admin('POST', `/admin/deliveries/${entry.id}/replay`, { force: true });
    expect(forced.statusCode).toBe(200);
    expect(forced.json().replay.forced).toBe(true);
  });

  it('force must be a boolean; nothing else is accepted in the body', async () => {
    const entry = await failedDelivery('RECHECK-4');
    expect((await t.admin('POST', `/admin/deliveries/${entry.id}/replay`, { force: 'yes' })).statusCode).toBe(422);
    expect((await t.admin('POST', `/admin/deliveries/${entry.id}/replay`, { forced: true })).statusCode).toBe(422);
  });
});

describe("the console's Replay anyway", () => {
  it('a refused replay offers it; the forced replay is journalled as forced', async () => {
    const fault = { down: false };
    const t = await openOperatorApp({ journal: true, engineFault: fault });
    try {
      fault.down = true;
      const raw = bodyOf(sale({ id: 'RECHECK-C' }));
      expect((await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw })).statusCode).toBe(
        500,
      );
      fault.down = false;
      await t.journal!.flush();
      const [entry] = (await t.journal!.list({ transactionId: 'RECHECK-C' })).deliveries;
      const connection = (await t.store.find('acme-pos', 'store-001'))!;
      expect((await t.admin('POST', `/admin/connections/${connection.id}/rotate`, { overlapSeconds: 0 })).statusCode).toBe(200);
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const signIn = await t.app.inject({ method: 'POST', url: '/console/sign-in', headers: form, payload: `token=${ADMIN_TOKEN}` });
      const cookie = String(signIn.headers['set-cookie']).split(';', 1)[0]!;
      const page = await t.app.inject({ method: 'GET', url: `/console/deliveries/${entry!.id}`, headers: { cookie } });
      expect(page.body).toContain('Replay anyway (forced)');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const refused = await t.app.inject({
        method: 'POST',
        url: `/console/deliveries/${entry!.id}/replay`,
        headers: { ...form, cookie },
        payload: `_csrf=${encodeURIComponent(csrf)}`,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain('signing secret');
      const forced = await t.app.inject({
        method: 'POST',
        url: `/console/deliveries/${entry!.id}/replay`,
        headers: { ...form, cookie },
        payload: `_csrf=${encodeURIComponent(csrf)}&force=1`,
      });
      expect(forced.statusCode).toBe(303);
      const replays = await t.journal!.replaysOf(entry!.id);
      expect(replays.map((r) => [r.outcome, r.replayForced, r.replayedBy?.startsWith('console:')])).toEqual([['processed', true, true]]);
    } finally {
      await t.close();
    }
  });
});
