import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { adapterKit } from '@loyalty-gateway/core/testing';
import type { AnyAdapter } from '@loyalty-gateway/core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { adapterGenerator } from './generator.js';
import { ADAPTER_LIST } from './register-adapter.js';

const EXISTING_LIST = `import type { AnyAdapter } from '@loyalty-gateway/core';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';

export const adapters: readonly AnyAdapter[] = [
  shopify,
];
`;

let tree: Tree;
beforeEach(() => {
  tree = createTreeWithEmptyWorkspace();
  tree.write(ADAPTER_LIST, EXISTING_LIST);
  tree.write('gateway/package.json', JSON.stringify({ name: '@loyalty-gateway/gateway', dependencies: { '@loyalty-gateway/core': '*' } }));
});

describe('adapter generator', () => {
  it('scaffolds the same-shaped adapter folder', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos' });
    for (const file of ['package.json', 'vitest.config.ts', 'README.md', 'src/index.ts', 'src/native.ts', 'src/map.ts', 'src/auth.ts',
      'src/catalog.ts', 'src/fixtures/order-paid.json', 'src/fixtures/SOURCES.md', 'src/webhook.test.ts']) {
      expect(tree.exists(`adapters/acme-pos/${file}`), file).toBe(true);
    }
    expect(JSON.parse(tree.read('adapters/acme-pos/package.json', 'utf-8')!).name).toBe('@loyalty-gateway/adapter-acme-pos');
    const index = tree.read('adapters/acme-pos/src/index.ts', 'utf-8')!;
    expect(index).toContain("slug: 'acme-pos'");
    expect(index).toContain("name: 'Acme Pos'");
    expect(index).not.toContain('<%');
  });

  it('registers the adapter in the typed list and as a gateway dependency', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos', name: 'Acme POS' });
    const list = tree.read(ADAPTER_LIST, 'utf-8')!;
    expect(list).toContain("import { adapter as acmePos } from '@loyalty-gateway/adapter-acme-pos';");
    expect(list).toMatch(/\[\s*shopify,\s*acmePos,\s*\]/);
    const pkg = JSON.parse(tree.read('gateway/package.json', 'utf-8')!);
    expect(pkg.dependencies['@loyalty-gateway/adapter-acme-pos']).toBe('*');
  });

  it('refuses a slug that already exists, and leaves the tree as it was', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos' });
    const before = tree.read(ADAPTER_LIST, 'utf-8');
    await expect(adapterGenerator(tree, { slug: 'acme-pos' })).rejects.toThrow(/already exists/);
    expect(tree.read(ADAPTER_LIST, 'utf-8')).toBe(before);
  });

  it.each(['Acme', 'generic', 'a', '9lives', 'acme_pos', 'acme-'])('refuses the invalid slug %j', async (slug) => {
    await expect(adapterGenerator(tree, { slug })).rejects.toThrow(/not a valid adapter slug/);
  });

  describe('the scaffold works as generated', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.generated-test');
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('maps its signed fixture to a valid canonical envelope', async () => {
      await adapterGenerator(tree, { slug: 'acme-pos' });
      const files = tree.listChanges().filter((c) => c.path.startsWith('adapters/acme-pos/') && c.content);
      for (const change of files) {
        const out = path.join(root, change.path);
        mkdirSync(path.dirname(out), { recursive: true });
        writeFileSync(out, change.content!);
      }
      const { adapter } = (await import(path.join(root, 'adapters/acme-pos/src/index.ts'))) as { adapter: AnyAdapter };
      const kit = adapterKit(adapter, { settings: { webhookSecret: 's', apiBaseUrl: 'http://127.0.0.1:1' }, credentials: { accessToken: 't' } });
      const request = kit.signed(tree.read('adapters/acme-pos/src/fixtures/order-paid.json')!);
      expect(kit.authenticate(request)).toEqual({ ok: true });
      const { envelopes } = await kit.envelopes(request);
      expect(envelopes).toHaveLength(1);
      expect(envelopes[0]).toMatchObject({ eventType: 'sale.completed', transaction: { id: '1001', total: 12.5 } });
    });
  });
});
