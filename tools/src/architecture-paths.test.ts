import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

/** Every file and folder of the tree (no dependencies, builds or caches), as paths from the root. */
function tree(): string[] {
  const skip = new Set(['node_modules', 'dist', '.git', '.nx', '.data', 'coverage']);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      out.push(entry.isDirectory() ? `${rel}/` : rel);
      if (entry.isDirectory()) walk(rel);
    }
  };
  walk('');
  return out;
}

/**
 * The paths the page names: backticked text that is a file (`gateway/src/app.ts`, or short as the
 * page writes them inside a package, `http/request-id.ts`, `earn.ts`) or a folder
 * (`gateway/src/composition/`, `engine/src/db`). Placeholders (`<slug>`) and globs are left out.
 */
function namedPaths(): string[] {
  const named = new Set<string>();
  for (const [, text] of doc.matchAll(/`([^`\s]+)`/g)) {
    const candidate = text!.replace(/[.,;:]$/, '');
    if (/[<>*{}]/.test(candidate) || /^[@/]/.test(candidate) || candidate.includes('://')) continue; // placeholders, packages, routes
    const file = /^[\w./-]+\.(ts|mts|mjs|cjs|js|json|md|yml|yaml|toml)$/.test(candidate);
    const folder = /^(core|storage|engine|gateway|adapters|tools|bench|deploy|docs)(\/[\w.-]+)*\/?$/.test(candidate);
    if (file || folder) named.add(candidate);
  }
  return [...named];
}

describe('docs/architecture.md', () => {
  it('names only paths that exist: from the root, or as the end of a path in the tree', () => {
    const all = tree();
    const named = namedPaths();
    expect(named.length).toBeGreaterThan(100);
    const missing = named.filter((p) => {
      if (existsSync(path.join(root, p))) return false;
      const output = /^(\w+)\/dist\/?$/.exec(p); // a build's output: its package has the build that writes it
      if (output) return !JSON.parse(readFileSync(path.join(root, output[1]!, 'package.json'), 'utf8')).scripts?.build;
      const asFolder = p.endsWith('/') ? p : `${p}/`;
      return !all.some((q) => q.endsWith(`/${p}`) || q.endsWith(`/${asFolder}`));
    });
    expect(missing).toEqual([]);
  });

  it('links only to docs that exist', () => {
    const links = [...doc.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((link) => !link.includes('://'));
    expect(links.filter((link) => !existsSync(path.join(root, 'docs', link)))).toEqual([]);
  });
});
