import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFiles, generateFiles, installPackagesTask, names, updateJson, type Tree } from '@nx/devkit';
import { registerAdapter } from './register-adapter.js';
import type { AdapterGeneratorSchema } from './schema.js';

const SLUG = /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/;
const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));

/**
 * `nx g @loyalty-gateway/tools:adapter <slug>`: a working adapter folder (manifest, native schemas,
 * pure map, auth, catalog pull, a fixture, tests) registered in the gateway's typed adapter list.
 */
export async function adapterGenerator(tree: Tree, options: AdapterGeneratorSchema) {
  const slug = options.slug?.trim() ?? '';
  if (!SLUG.test(slug) || slug === 'generic') {
    throw new Error(
      `"${slug}" is not a valid adapter slug: use 3-50 lowercase letters, digits and dashes, starting with a letter (and not "generic").`,
    );
  }
  const target = `adapters/${slug}`;
  if (tree.exists(target) && tree.children(target).length > 0) {
    throw new Error(`${target} already exists: an adapter with slug "${slug}" is already in the workspace.`);
  }
  const n = names(slug);
  const name =
    options.name ??
    slug
      .split('-')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(' ');
  generateFiles(tree, path.join(here, 'files'), target, {
    slug,
    name,
    category: options.category ?? 'pos',
    prefix: n.className,
    initial: name[0]!.toUpperCase(),
    tmpl: '',
  });
  // The gateway's end-to-end test of the new door, running on the adapter's seed example.
  if (tree.exists('gateway/package.json')) generateFiles(tree, path.join(here, 'gateway-files'), 'gateway', { slug, name, tmpl: '' });
  registerAdapter(tree, slug, n.propertyName);
  listInDocs(tree, slug);
  if (tree.exists('gateway/package.json')) {
    updateJson(tree, 'gateway/package.json', (json: { dependencies?: Record<string, string> }) => {
      json.dependencies = { ...json.dependencies, [`@loyalty-gateway/adapter-${slug}`]: '*' };
      json.dependencies = Object.fromEntries(Object.entries(json.dependencies).sort(([a], [b]) => a.localeCompare(b)));
      return json;
    });
  }
  // The files it wrote or changed come out as the workspace's formatter would leave them
  // (prettier with the root's .prettierrc.json; vendor fixtures are in .prettierignore).
  await formatFiles(tree);
  // Always: the new workspace package must be linked into node_modules and package-lock.json, and
  // installPackagesTask only runs on its own when the ROOT package.json changed.
  return () => installPackagesTask(tree, true);
}

/** The docs line naming the registered adapters (docs/featured-vendors.md), kept in step with the typed list. */
export const ADAPTER_DOCS = 'docs/featured-vendors.md';
const DOCS_LINE = /^Registered adapters: (.*?) \(the typed list/m;

function listInDocs(tree: Tree, slug: string): void {
  const docs = tree.read(ADAPTER_DOCS, 'utf-8');
  const line = docs ? DOCS_LINE.exec(docs) : null;
  if (!docs || !line || line[1]!.includes(`\`${slug}\``)) return;
  tree.write(ADAPTER_DOCS, docs.replace(line[0], `Registered adapters: ${line[1]}, \`${slug}\` (the typed list`));
}

export default adapterGenerator;
