import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acme, connectionFor, openTestStore, type TestStore } from '../testing/open-test-store.js';
import { StoreInputError } from './store-errors.js';

describe.each(testDialects())('store ids HTTP can carry, on $name', ({ name }) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(name);
    await t.store.ensureVendor(acme);
  });
  afterEach(() => t.close());

  it.each([
    [' padded', 'must not start or end with a space or tab'],
    ['padded ', 'must not start or end with a space or tab'],
    ['\tstore', 'must not start or end with a space or tab'],
    ['store\n', 'must not contain control characters'],
    ['line\r\nbreak', 'must not contain control characters'],
    ['nul\u0000', 'must not contain control characters'],
  ])('store id %j, with which no request could ever authenticate, is refused, nothing written', async (storeId, message) => {
    const error = await t.store.createConnection(connectionFor(storeId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreInputError);
    expect((error as Error).message).toContain(`storeId: ${message}`);
    expect(await t.store.listConnections()).toEqual([]);
  });

  it('inner spaces, tabs, slashes and non-ASCII letters are kept', async () => {
    for (const storeId of ['Main St/Unit 7', 'a\tb', 'Störe 1']) {
      await t.store.createConnection(connectionFor(storeId));
      expect((await t.store.find('acme-pos', storeId))?.storeId).toBe(storeId);
    }
  });
});
