import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOperatorApp, type OperatorApp } from '../../src/testing/open-operator-app.js';
import { featuredSeedDocument, SHOP_DOMAIN, SHOPIFY_APP_SECRET } from '../../src/testing/featured-seed.js';
import { bodyOf, headersFor } from '../../src/testing/gateway-fixture.js';
import { adapterFixtureJson, vendorSignature } from '../../src/testing/native-fixtures.js';
import { refund, sale } from '../../src/testing/test-seed.js';

type Entry = Record<string, any>;

/** A sale with one muffin (no stamp card matches it), for `customer` (null: a walk-in). */
const muffinSale = (id: string, total: number, customer: { type: string; value: string } | null, currency = 'USD') => {
  const base = sale({ id, total, customer });
  return {
    ...base,
    transaction: { ...base.transaction, currency, items: [{ id: 'p2', name: 'Muffin', sku: 'BAK-MUFFIN', quantity: 1, unitPrice: total }] },
  };
};
const member = { type: 'membershipId', value: 'MBR-0001' };

describe.each(testDialects())('"earned nothing" is visible in the journal ($name)', ({ name }) => {
  let t: OperatorApp;
  afterEach(async () => {
    await t.close();
  });

  const send = async (body: unknown) => {
    const raw = bodyOf(body);
    const answer = await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    expect(answer.statusCode).toBe(200);
    return answer;
  };
  const listed = async (query = ''): Promise<Entry[]> => {
    await t.journal!.flush();
    return (await t.admin('GET', `/admin/deliveries${query}`)).json().deliveries as Entry[];
  };

  describe('the generic door', () => {
    beforeEach(async () => {
      t = await openOperatorApp({ dialect: name, journal: true });
    });

    it('each processed sale says what it earned, its stamps and its warning; one that earned nothing says why, and the filter finds those', async () => {
      await send(sale({ id: 'E-EARNS', total: 12.5 }));
      await send(muffinSale('E-WALKIN', 12.5, null));
      await send(muffinSale('E-STRANGER', 12.5, { type: 'membershipId', value: 'MBR-NOPE' }));
      await send(muffinSale('E-SMALL', 0.5, member));
      await send(muffinSale('E-EUROS', 12.5, member, 'EUR'));
      await send(refund('E-FIRST', 'E-FIRST-R1'));
      await send(muffinSale('E-FIRST', 12.5, member));
      await send(sale({ id: 'E-EARNS', total: 12.5 })); // a duplicate earns nothing, and is no "earned nothing"

      const all = await listed();
      const byTransaction = (id: string, eventType = 'sale.completed') =>
        all.filter((d) => d.transactionId === id && d.eventType === eventType);
      const [duplicate, earned] = byTransaction('E-EARNS'); // newest first
      expect(earned).toMatchObject({
        outcome: 'processed',
        pointsEarned: 12,
        stamps: 'Buy 5 coffees, get one free 2/5',
        nothingEarned: null,
      });
      expect(duplicate).toMatchObject({ outcome: 'duplicate', pointsEarned: 0, nothingEarned: null });
      expect(byTransaction('E-WALKIN')[0]).toMatchObject({
        pointsEarned: 0,
        stamps: null,
        nothingEarned: 'walk_in',
        warning: expect.stringMatching(/^Walk-in sale/),
      });
      expect(byTransaction('E-STRANGER')[0]).toMatchObject({
        nothingEarned: 'unknown_customer',
        warning: expect.stringMatching(/^Customer not found/),
      });
      expect(byTransaction('E-SMALL')[0]).toMatchObject({
        nothingEarned: 'below_threshold',
        warning: expect.stringMatching(/below one point/),
      });
      expect(byTransaction('E-EUROS')[0]).toMatchObject({ nothingEarned: 'other_currency', warning: expect.stringMatching(/in EUR but/) });
      expect(byTransaction('E-FIRST')[0]).toMatchObject({ nothingEarned: 'refunded_first', pointsEarned: 0 });
      expect(byTransaction('E-FIRST', 'sale.refunded')[0]).toMatchObject({ pointsReversed: 0, pointsEarned: null, nothingEarned: null });

      expect((await listed('?nothingEarned=any')).map((d) => d.transactionId)).toEqual([
        'E-FIRST',
        'E-EUROS',
        'E-SMALL',
        'E-STRANGER',
        'E-WALKIN',
      ]);
      expect((await listed('?nothingEarned=walk_in')).map((d) => d.transactionId)).toEqual(['E-WALKIN']);
      expect((await t.admin('GET', '/admin/deliveries?nothingEarned=because')).statusCode).toBe(422);

      const { story } = (await t.admin('GET', `/admin/deliveries/${byTransaction('E-WALKIN')[0]!.id as string}`)).json();
      expect(story.find((s: { step: string }) => s.step === 'ledger').outcome).toBe(
        'sale.completed of transaction E-WALKIN: processed, earned nothing (walk_in) (Walk-in sale: no customer on the sale. The sale was recorded; no points or stamps were awarded.)',
      );
      const earnedStory = (await t.admin('GET', `/admin/deliveries/${earned!.id as string}`)).json().story;
      expect(earnedStory.find((s: { step: string }) => s.step === 'ledger').outcome).toBe(
        'sale.completed of transaction E-EARNS: processed, 12 points earned, stamps Buy 5 coffees, get one free 2/5',
      );
    });
  });

  describe('a featured door', () => {
    beforeEach(async () => {
      t = await openOperatorApp({ dialect: name, journal: true, seedDocument: featuredSeedDocument() });
    });

    const sendShopify = async (order: Record<string, unknown>) => {
      const payload = Buffer.from(JSON.stringify(order));
      const headers = {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': SHOP_DOMAIN,
        ...vendorSignature(shopify.defaultAuth, SHOPIFY_APP_SECRET, '', payload),
      };
      const answer = await t.app.inject({ method: 'POST', url: '/webhooks/shopify', headers, payload });
      expect(answer.statusCode).toBe(200);
    };

    it("a Shopify order of a member earns and says so; one whose customer is no member says why it earned nothing, with the engine's warning", async () => {
      const paid = adapterFixtureJson('shopify', 'orders-paid.json') as Record<string, any>;
      await sendShopify(paid);
      const stranger = 'someone.else@mail.example.com';
      await sendShopify({
        ...paid,
        id: 450789470,
        email: stranger,
        contact_email: stranger,
        phone: null,
        customer: { ...paid.customer, email: stranger, phone: null },
      });
      const [unknown, earned] = await listed('?vendor=shopify');
      expect(earned).toMatchObject({
        transactionId: '450789469',
        outcome: 'processed',
        pointsEarned: expect.any(Number),
        nothingEarned: null,
      });
      expect(earned!.pointsEarned).toBeGreaterThan(0);
      expect(unknown).toMatchObject({
        transactionId: '450789470',
        outcome: 'processed',
        pointsEarned: 0,
        nothingEarned: 'unknown_customer',
        warning: expect.stringMatching(/^Customer not found/),
      });
      expect((await listed('?nothingEarned=any')).map((d) => d.transactionId)).toEqual(['450789470']);
    });
  });
});
