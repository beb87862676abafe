import { describe, expect, it } from 'vitest';
import { deliveredTwice, subscriptionDuplicates, type JournalledDelivery } from './subscription-duplicates.js';

const HOOK = 'https://loyalty.example.com/webhooks/shopify';
const sub = (id: string, topic: string, uri: string | null) => ({ id, topic, uri });

describe('subscriptionDuplicates: one topic subscribed more than once to the gateway', () => {
  it('groups by topic and address; other addresses (an old gateway, another app) are not duplicates of the gateway', () => {
    expect(
      subscriptionDuplicates(
        [
          sub('1', 'ORDERS_PAID', HOOK),
          sub('2', 'ORDERS_PAID', HOOK),
          sub('3', 'ORDERS_PAID', 'https://old.example.com/webhooks/shopify'),
          sub('4', 'REFUNDS_CREATE', HOOK),
          sub('5', 'REFUNDS_CREATE', null),
        ],
        HOOK,
        'shopify',
      ),
    ).toEqual([{ topic: 'ORDERS_PAID', uri: HOOK, ids: ['1', '2'] }]);
  });

  it('without a public URL, any address of the vendor door counts as the gateway', () => {
    const other = 'https://other.example.com/webhooks/shopify/';
    expect(subscriptionDuplicates([sub('1', 'ORDERS_PAID', other), sub('2', 'ORDERS_PAID', other)], null, 'shopify')).toEqual([
      { topic: 'ORDERS_PAID', uri: other, ids: ['1', '2'] },
    ]);
    expect(
      subscriptionDuplicates(
        [sub('1', 'ORDERS_PAID', 'https://x.example/hook'), sub('2', 'ORDERS_PAID', 'https://x.example/hook')],
        null,
        'shopify',
      ),
    ).toEqual([]);
  });
});

describe('deliveredTwice: an event delivered again after a delivery answered in time', () => {
  const at = (second: number) => `2026-11-28T10:00:${String(second).padStart(2, '0')}.000Z`;
  const delivery = (
    second: number,
    eventId: string | null,
    status = 200,
    durationMs = 40,
    replayOf: string | null = null,
  ): JournalledDelivery => ({
    receivedAt: at(second),
    eventId,
    status,
    durationMs,
    replayOf,
  });

  it('two 200s of one event (two subscriptions) count; a retry after a failure or a late answer, a replay, or no event id do not', () => {
    expect(
      deliveredTwice([
        delivery(2, 'orders/paid:a'),
        delivery(1, 'orders/paid:a'),
        delivery(3, 'refunds/create:b', 503),
        delivery(4, 'refunds/create:b'),
        delivery(5, 'orders/paid:c', 200, 6_000),
        delivery(9, 'orders/paid:c'),
        delivery(6, 'orders/paid:d'),
        delivery(7, 'orders/paid:d', 200, 30, 'journal-entry-6'),
        delivery(8, null),
        delivery(9, null),
      ]),
    ).toEqual(['orders/paid:a']);
  });
});
