import { setupFields } from '@loyalty-gateway/core';
import { describe, expect, it } from 'vitest';
import { adapters } from './adapters.js';

describe('the registered adapters', () => {
  it.each(adapters.map((adapter) => ({ slug: adapter.slug, adapter })))(
    '$slug: every settings field says what it is (.meta title and description)',
    ({ adapter }) => {
      expect(() => setupFields(adapter.settings, `${adapter.slug} settings`)).not.toThrow();
    },
  );
});
