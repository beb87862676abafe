import { describe, expect, it } from 'vitest';
import { renderDeliveries } from './deliveries-page.js';

const session = { id: 'session-id', csrf: 'csrf-token', expiresAt: Date.now() + 60_000 };

describe('renderDeliveries', () => {
  it('a search that stopped at its bound says how far back it looked and offers to search older; a finished one says nothing matches', () => {
    const stopped = renderDeliveries({
      session,
      filters: { store: 'store-9' },
      deliveries: [],
      nextHref: '/console?store=store-9&cursor=abc',
      searchedBackTo: '2026-11-28T02:00:00.000Z',
      journalMounted: true,
    });
    expect(stopped).toContain('No delivery received since 2026-11-28 02:00:00Z matches these filters.');
    expect(stopped).toContain('<a href="/console?store=store-9&amp;cursor=abc" rel="next">Search older deliveries</a>');
    const finished = renderDeliveries({
      session,
      filters: { store: 'store-9' },
      deliveries: [],
      nextHref: null,
      searchedBackTo: null,
      journalMounted: true,
    });
    expect(finished).toContain('No delivery matches these filters.');
    expect(finished).not.toContain('Search older');
  });
});
