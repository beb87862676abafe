import { loadFixtures } from '@loyalty-gateway/core/testing';

export { graphqlOrderOf, shopMoney } from './graphql-order.js';
export { startRecordedShopify } from './recorded-shopify.js';

/** The recorded Shopify payloads of src/fixtures (what Shopify sent or answered, byte for byte). */
export const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));
