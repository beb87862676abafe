import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { sale } from '../../src/testing/test-seed.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(testDialects())(
  "the console's deliveries: what each earned, why one failed, whether a replay recovered it ($name)",
  ({ name }) => {
    let t: OperatorApp;
    const fault = { down: false };
    beforeEach(async () => {
      fault.down = false;
      t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
    });
    afterEach(() => t.close());

    async function signIn(): Promise<{ cookie: string; csrf: string }> {
      const response = await t.app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: FORM,
        payload: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
      });
      const cookie = String(response.headers['set-cookie']).split(';', 1)[0]!;
      const page = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
      return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page.body)![1]! };
    }
    const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    const webhook = (body: unknown) => {
      const raw = bodyOf(body);
      return t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    };
    /** The text of a page without its tags, spaces collapsed. */
    const text = (body: string) =>
      body
        .replace(/<[^>]+>/g, ' ')
        .replace(/&#39;/g, "'")
        .replace(/\s+/g, ' ');

    it('the list says what each sale earned, or that it earned nothing and why; the Earned filter finds those', async () => {
      const { cookie } = await signIn();
      expect((await webhook(sale({ id: 'K-EARNS', total: 12.5 }))).statusCode).toBe(200);
      expect((await webhook(sale({ id: 'K-WALKIN', total: 12.5, customer: null }))).statusCode).toBe(200);
      const all = text((await get('/console', cookie)).body);
      expect(all).toContain('12 points, stamps Buy 5 coffees, get one free 2/5');
      expect(all).toContain('nothing: a walk-in: no customer on the sale processed Walk-in sale: no customer on the sale.');
      const form = (await get('/console', cookie)).body;
      expect(form).toContain('<select id="f-nothingEarned" name="nothingEarned">');
      const walkIns = await get('/console?nothingEarned=walk_in', cookie);
      expect(walkIns.body).toContain('K-WALKIN');
      expect(walkIns.body).not.toContain('K-EARNS');
      expect(walkIns.body).toContain('<option value="walk_in" selected>');
      expect((await get('/console?nothingEarned=any', cookie)).body).toContain('K-WALKIN');
      expect((await get('/console?nothingEarned=because', cookie)).statusCode).toBe(422);
      const walkInId = (await t.journal!.list({ transactionId: 'K-WALKIN' })).deliveries[0]!.id;
      const page = text((await get(`/console/deliveries/${walkInId}`, cookie)).body);
      expect(page).toContain('Processed, but earned nothing: a walk-in: no customer on the sale. Walk-in sale: no customer on the sale.');
    });

    it('a failed delivery says its cause first and offers Replay; once a replay answered it, it says recovered, links the replay, and offers no Replay', async () => {
      const { cookie, csrf } = await signIn();
      fault.down = true;
      const failed = await webhook(sale({ id: 'K-500' }));
      expect(failed.statusCode).toBe(500);
      const id = (await t.journal!.get(failed.headers['x-request-id'] as string))!.id;
      const before = await get(`/console/deliveries/${id}`, cookie);
      expect(text(before.body)).toMatch(
        /Failed on the gateway's side, HTTP 500: engine earn: unavailable: engine unreachable \(test fault\); took \d+ ms\./,
      );
      expect(before.body).toContain('>Replay</button>');
      expect(text((await get('/console?status=500', cookie)).body)).toContain(
        'engine_unavailable_retry engine earn: unavailable: engine unreachable (test fault)',
      );

      fault.down = false;
      const replayed = await t.app.inject({
        method: 'POST',
        url: `/console/deliveries/${id}/replay`,
        headers: { ...FORM, cookie },
        payload: new URLSearchParams({ _csrf: csrf }).toString(),
      });
      expect(replayed.statusCode).toBe(303);
      const replay = (await t.journal!.replaysOf(id))[0]!;
      const after = await get(`/console/deliveries/${id}`, cookie);
      expect(text(after.body)).toContain(`Recovered: replay ${replay.id} answered HTTP 200 processed`);
      expect(after.body).toContain(`href="/console/deliveries/${encodeURIComponent(replay.id)}"`);
      expect(after.body).not.toContain('>Replay</button>');
      expect(after.body).not.toContain('Replay anyway');
      expect(text((await get('/console?status=500', cookie)).body)).toContain('Recovered by a replay.');
    });
  },
);
