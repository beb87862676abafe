#!/usr/bin/env node
// Production build of one runnable package: its entry points bundled to plain JavaScript in
// <package>/dist with source maps, so `node --enable-source-maps <package>/dist/main.js` runs with
// no TypeScript tooling loaded. The workspace's own packages (@loyalty-gateway/*, whose `exports`
// point at TypeScript sources) are compiled into the bundle; every other package stays an import
// resolved from node_modules at run time (native modules such as better-sqlite3 cannot be bundled,
// and pino, pg, ioredis keep their own files).
//
// Usage (what each package's `build` script runs; `npm run build` runs them all through Nx):
//   node tools/build/bundle.mjs gateway|engine|tools
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Entry points per package: output name → source, relative to the repository root. */
const ENTRIES = {
  gateway: {
    main: 'gateway/src/main.ts',
    // The embedded engine's worker thread, started from beside the bundle (create-worker-engine.ts).
    'engine-worker': 'engine/src/worker/engine-worker.ts',
  },
  engine: {
    main: 'engine/src/main.ts',
    'engine-worker': 'engine/src/worker/engine-worker.ts',
  },
  tools: {
    cli: 'tools/src/cli.ts',
  },
};

/** Bundle our own packages; leave every other bare import to node_modules. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@loyalty-gateway/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function bundle(name) {
  const entries = ENTRIES[name];
  if (!entries) throw new Error(`unknown package "${name}" (one of ${Object.keys(ENTRIES).join(', ')})`);
  const outdir = path.join(root, name, 'dist');
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([out, src]) => [out, path.join(root, src)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    outExtension: { '.js': '.js' },
    plugins: [externalDependencies],
    // ESM output has no require(): give bundled CommonJS-style code one, and __dirname for the few that ask.
    banner: {
      js: "import { createRequire as __lgCreateRequire } from 'node:module'; const require = __lgCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs).length;
  console.log(`built ${name}/dist (${Object.keys(entries).join(', ')}) from ${inputs} source files`);
}

const name = process.argv[2];
if (name) {
  bundle(name).catch((error) => {
    console.error(error.message ?? error);
    process.exit(1);
  });
}
