#!/usr/bin/env node
// Production build of one runnable package: its entry points bundled to plain JavaScript in
// <package>/dist with source maps, so `node --enable-source-maps <package>/dist/main.js` runs with
// no TypeScript tooling loaded. The workspace's own packages (@loyalty-gateway/*, whose `exports`
// point at TypeScript sources) are compiled into the bundle; every other package stays an import
// resolved from node_modules at run time (native modules such as better-sqlite3 cannot be bundled,
// and pino, pg, ioredis keep their own files).
//
// Usage (what each package's `build` script runs; `npm run build` runs them all through Nx):
//   node tools/build/bundle.mjs gateway|engine|tools [outdir]
import { build } from 'esbuild';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Entry points per package: output name → source, relative to the repository root. */
const ENTRIES = {
  gateway: {
    main: 'gateway/src/main.ts',
    // The embedded engine's worker thread, started from beside the bundle (create-worker-engine.ts).
    'engine-worker': 'engine/src/worker/engine-worker.ts',
    // The delivery journal's SQLite writer thread (delivery-journal.ts).
    'journal-worker': 'gateway/src/journal/journal-worker.ts',
    // The production start's heap flags for this environment (gateway/bin/start).
    'memory-flags': 'gateway/src/memory/memory-flags.ts',
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

export async function bundle(name, into) {
  const entries = ENTRIES[name];
  if (!entries) throw new Error(`unknown package "${name}" (one of ${Object.keys(ENTRIES).join(', ')})`);
  // `into`: another output directory (a test building its own copy while others read <package>/dist).
  const outdir = into ? path.resolve(into) : path.join(root, name, 'dist');
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
    // Non-ASCII characters escaped: V8 keeps each script's source in the heap, as a two-byte string
    // if one character needs it (the gateway's main.js took 1.2 MB instead of 0.6).
    charset: 'ascii',
    outExtension: { '.js': '.js' },
    // The CLI is a package of its own (npm pack tools/dist): every dependency inside, nothing to install.
    plugins: name === 'tools' ? [] : [externalDependencies],
    // ESM output has no require(): give bundled CommonJS-style code one, and __dirname for the few that ask.
    banner: {
      js: "import { createRequire as __lgCreateRequire } from 'node:module'; const require = __lgCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs).length;
  if (name === 'tools') await writeCliPackage(outdir);
  console.log(`built ${path.relative(root, outdir)} (${Object.keys(entries).join(', ')}) from ${inputs} source files`);
}

/**
 * tools/dist as the standalone CLI package `@loyalty-gateway/cli`: the bundled `loyalty-gateway`
 * binary (no dependencies), the zero-dependency signing module vendors copy, and a README.
 * `npm pack tools/dist` makes the tarball; installed anywhere, `npx loyalty-gateway --help` runs.
 */
async function writeCliPackage(outdir) {
  const tools = JSON.parse(await readFile(path.join(root, 'tools/package.json'), 'utf8'));
  const workspace = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  await copyFile(path.join(root, 'tools/vendor-signing/loyalty-signing.mjs'), path.join(outdir, 'loyalty-signing.mjs'));
  await writeFile(
    path.join(outdir, 'package.json'),
    `${JSON.stringify(
      {
        name: '@loyalty-gateway/cli',
        version: tools.version,
        description: 'The loyalty gateway CLI: sign and send sales, certify a vendor integration, and run the operator admin API.',
        license: workspace.license,
        type: 'module',
        bin: { 'loyalty-gateway': 'cli.js' },
        exports: { './signing': './loyalty-signing.mjs' },
        files: ['cli.js', 'cli.js.map', 'loyalty-signing.mjs', 'README.md'],
        engines: workspace.engines,
      },
      null,
      2,
    )}\n`,
  );
  await writeFile(
    path.join(outdir, 'README.md'),
    [
      '# @loyalty-gateway/cli',
      '',
      "The loyalty gateway's command line, with no dependencies (Node.js 20.19 or later):",
      '',
      '```sh',
      'npx loyalty-gateway --help',
      'npx loyalty-gateway certify --url https://gw.example.com --vendor SLUG --store ID --secret S',
      'GATEWAY_URL=https://gw.example.com GATEWAY_ADMIN_TOKEN=… npx loyalty-gateway admin vendors list',
      '```',
      '',
      "`import { signedRequestHeaders, signV1 } from '@loyalty-gateway/cli/signing'` is the signing module vendors may also copy.",
      '',
    ].join('\n'),
  );
}

const name = process.argv[2];
if (name) {
  bundle(name, process.argv[3]).catch((error) => {
    console.error(error.message ?? error);
    process.exit(1);
  });
}
