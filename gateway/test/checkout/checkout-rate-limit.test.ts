import { describe, expect, it } from 'vitest';
import { sale } from '../../src/testing/test-seed.js';
import { MEMBERS, PATHS, byMembership, expectError, openCheckoutGateway } from '../../src/testing/checkout-kit.js';

describe('checkout calls share the per-connection rate-limit budget with the earn webhook', () => {
  it('GATEWAY_RATE_LIMIT=3: two eligibility calls and one sale spend it; the next call of either kind is 429', async () => {
    const gw = await openCheckoutGateway('sqlite', { rateLimit: { max: 3 } });
    try {
      const cart = { customer: byMembership(MEMBERS.rich.id) };
      expect((await gw.post(PATHS.eligibility, cart)).statusCode).toBe(200);
      expect((await gw.post(PATHS.eligibility, { ...cart, orderValue: 12.5 })).statusCode).toBe(200);
      expect((await gw.send(sale())).json()).toMatchObject({ status: 'processed' });
      const limitedSale = expectError(await gw.send(sale()), 429, 'rate_limited');
      expect(limitedSale.message).toMatch(/Retry after/);
      const limitedCart = await gw.post(PATHS.eligibility, cart);
      expectError(limitedCart, 429, 'rate_limited');
      expect(Number(limitedCart.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await gw.close();
    }
  });
});
