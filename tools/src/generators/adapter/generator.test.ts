import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ADAPTER_DOCS, adapterGenerator } from './generator.js';
import { ADAPTER_LIST } from './register-adapter.js';

const EXISTING_LIST = `import type { AnyAdapter } from '@loyalty-gateway/core';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';

export const adapters: readonly AnyAdapter[] = [
  shopify,
];
`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let tree: Tree;
beforeEach(() => {
  tree = createTreeWithEmptyWorkspace();
  // The workspace's formatter settings in place of the empty test workspace's own (formatFiles reads a changed .prettierrc from the tree).
  for (const file of tree.children('')) if (/^\.(prettierrc|oxfmtrc)/.test(file)) tree.delete(file);
  for (const file of ['.prettierrc', '.prettierignore']) tree.write(file, readFileSync(path.join(root, file), 'utf-8'));
  tree.write(ADAPTER_LIST, EXISTING_LIST);
  tree.write('gateway/package.json', JSON.stringify({ name: '@loyalty-gateway/gateway', dependencies: { '@loyalty-gateway/core': '*' } }));
});

describe('adapter generator', () => {
  it('scaffolds the same-shaped adapter folder', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos' });
    for (const file of [
      'package.json',
      'vitest.config.ts',
      'README.md',
      'src/index.ts',
      'src/native.ts',
      'src/map.ts',
      'src/auth.ts',
      'src/catalog.ts',
      'src/config.ts',
      'src/testing/index.ts',
      'src/fixtures/order-paid.json',
      'src/fixtures/products-page-1.json',
      'src/fixtures/products-page-2.json',
      'src/fixtures/SOURCES.md',
      'seed.example.json',
      'src/map.test.ts',
      'src/map.property.test.ts',
      'src/auth.test.ts',
      'src/webhook.test.ts',
      'src/catalog.test.ts',
    ]) {
      expect(tree.exists(`adapters/acme-pos/${file}`), file).toBe(true);
    }
    const manifest = JSON.parse(tree.read('adapters/acme-pos/package.json', 'utf-8')!);
    expect(manifest.name).toBe('@loyalty-gateway/adapter-acme-pos');
    // Tagged so the module boundaries hold it to core only (eslint.config.mjs), and linted like the others.
    expect(manifest.nx).toEqual({ tags: ['type:adapter'] });
    expect(manifest.scripts.lint).toBe('eslint .');
    const index = tree.read('adapters/acme-pos/src/index.ts', 'utf-8')!;
    expect(index).toContain("slug: 'acme-pos'");
    expect(index).toContain("name: 'Acme Pos'");
    expect(index).not.toContain('<%');
    expect(index).toContain('response: { accepted:');
  });

  it('registers the adapter in the typed list and as a gateway dependency', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos', name: 'Acme POS' });
    const list = tree.read(ADAPTER_LIST, 'utf-8')!;
    expect(list).toContain("import { adapter as acmePos } from '@loyalty-gateway/adapter-acme-pos';");
    expect(list).toContain('export const adapters: readonly AnyAdapter[] = [shopify, acmePos];');
    const pkg = JSON.parse(tree.read('gateway/package.json', 'utf-8')!);
    expect(pkg.dependencies['@loyalty-gateway/adapter-acme-pos']).toBe('*');
  });

  it("adds the gateway end-to-end test running on the adapter's seed example, and the docs line", async () => {
    tree.write(
      ADAPTER_DOCS,
      '# Featured vendors\n\nRegistered adapters: `shopify`, `square` (the typed list in `gateway/src/adapters.ts`).\n',
    );
    await adapterGenerator(tree, { slug: 'acme-pos', name: 'Acme POS' });
    const e2e = tree.read('gateway/test/featured/acme-pos.e2e.test.ts', 'utf-8')!;
    expect(e2e).toContain("import { adapter } from '@loyalty-gateway/adapter-acme-pos';");
    expect(e2e).toContain("adapterFile('seed.example.json')");
    expect(e2e).toContain("url: '/webhooks/acme-pos'");
    expect(e2e).not.toContain('<%');
    const seed = JSON.parse(tree.read('adapters/acme-pos/seed.example.json', 'utf-8')!);
    expect(seed.vendors).toEqual([
      { slug: 'acme-pos', name: 'Acme POS', tier: 'featured', settings: expect.objectContaining({ webhookSecret: expect.any(String) }) },
    ]);
    expect(seed.merchants[0].connections[0]).toMatchObject({ vendor: 'acme-pos', storeId: 'store-001' });
    expect(tree.read(ADAPTER_DOCS, 'utf-8')).toContain('Registered adapters: `shopify`, `square`, `acme-pos` (the typed list');
  });

  it("writes its code formatted as the workspace's prettier settings format it, and leaves the vendor fixtures as they are", async () => {
    await adapterGenerator(tree, { slug: 'acme-pos', name: 'Acme POS' });
    const prettier = await import('prettier');
    const options = JSON.parse(readFileSync(path.join(root, '.prettierrc'), 'utf-8'));
    const written = tree
      .listChanges()
      .filter((change) => change.type !== 'DELETE' && /^(adapters|gateway)\/.*\.(ts|json)$/.test(change.path));
    const code = written.filter((change) => !change.path.includes('/fixtures/'));
    expect(code.map((change) => change.path)).toEqual(expect.arrayContaining(['adapters/acme-pos/src/map.ts', ADAPTER_LIST]));
    for (const change of code) {
      const text = tree.read(change.path, 'utf-8')!;
      expect(await prettier.check(text, { ...options, filepath: change.path }), change.path).toBe(true);
    }
    const fixture = tree.read('adapters/acme-pos/src/fixtures/order-paid.json', 'utf-8')!;
    const template = readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'files/src/fixtures/order-paid.json.template'),
      'utf-8',
    );
    expect(fixture.split('\n').length).toBe(template.split('\n').length);
  });

  it('refuses a slug that already exists, and leaves the tree as it was', async () => {
    await adapterGenerator(tree, { slug: 'acme-pos' });
    const before = tree.read(ADAPTER_LIST, 'utf-8');
    await expect(adapterGenerator(tree, { slug: 'acme-pos' })).rejects.toThrow(/already exists/);
    expect(tree.read(ADAPTER_LIST, 'utf-8')).toBe(before);
  });

  it('describes itself and every option for `nx g @loyalty-gateway/tools:adapter --help` (the description printed "undefined")', () => {
    const schema = JSON.parse(readFileSync(new URL('./schema.json', import.meta.url), 'utf8'));
    expect(schema.description).toMatch(/^Scaffold a featured-vendor adapter/);
    for (const [name, option] of Object.entries(schema.properties as Record<string, { description?: string }>))
      expect(option.description, name).toBeTruthy();
    expect(schema.examples[0].command).toContain('nx g @loyalty-gateway/tools:adapter');
  });

  it.each(['Acme', 'generic', 'a', '9lives', 'acme_pos', 'acme-'])('refuses the invalid slug %j', async (slug) => {
    await expect(adapterGenerator(tree, { slug })).rejects.toThrow(/not a valid adapter slug/);
  });

  describe('the scaffold works as generated', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.generated-test');
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('passes its own map, mapping-property, auth, webhook and catalog tests (written out from the virtual tree and run by vitest)', async () => {
      await adapterGenerator(tree, { slug: 'acme-pos' });
      const files = tree.listChanges().filter((c) => c.path.startsWith('adapters/acme-pos/') && c.content);
      for (const change of files) {
        const out = path.join(root, change.path);
        mkdirSync(path.dirname(out), { recursive: true });
        writeFileSync(out, change.content!);
      }
      // The scaffold's vitest.config.ts re-exports the workspace's shared config two levels up.
      writeFileSync(path.join(root, 'vitest.shared.ts'), "export { default } from '../../vitest.shared.js';\n");
      const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
      const run = spawnSync(process.execPath, [vitest, 'run', '--root', path.join(root, 'adapters/acme-pos')], {
        encoding: 'utf8',
        timeout: 90_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(0);
      expect(output).toMatch(/Test Files\s+5 passed/);
      for (const file of ['map.test.ts', 'map.property.test.ts', 'auth.test.ts', 'webhook.test.ts', 'catalog.test.ts'])
        expect(output).toContain(file);
    }, 120_000);
  });
});
