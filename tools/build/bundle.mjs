#!/usr/bin/env node
// Production build of one runnable package: its entry points bundled to plain JavaScript in
// <package>/dist with source maps, so `node --enable-source-maps <package>/dist/main.js` runs with
// no TypeScript tooling loaded. Our own packages (@loyalty-gateway/*, whose `exports` point at
// TypeScript sources) and their dependencies are compiled into one file per entry point, with
// whitespace and syntax minified: V8 keeps every loaded script's source in each thread's heap, and
// a dependency resolved from node_modules is loaded whole, in every thread that imports it
// (measured, docs/benchmarks.md: 10-17 MiB less resident). Identifiers keep their
// names (logs' error types, fastify's plugin names, stack traces without the map).
// Left in node_modules: native modules (better-sqlite3 cannot be bundled), and the drivers the
// gateway loads by `require` on first use (pg, ioredis, undici: esbuild does not follow a
// createRequire call, so they stay out of the bundle and out of a SQLite gateway's memory).
//
// Usage (what each package's `build` script runs; `npm run build` runs them all through Nx):
//   node tools/build/bundle.mjs gateway|engine|tools [outdir]
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Entry points per package: output name → source, relative to the repository root. */
const ENTRIES = {
  gateway: {
    main: 'gateway/src/main.ts',
    // The embedded engine's worker thread, started from beside the bundle (create-worker-engine.ts).
    'engine-worker': 'engine/src/worker/engine-worker.ts',
    // The delivery journal's SQLite writer thread (journal-writer.ts).
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

/** Packages with native code: resolved from node_modules at run time. */
const NATIVE = ['better-sqlite3'];
const nativeDependencies = {
  name: 'native-dependencies',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${NATIVE.join('|')})($|/)`) }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * zod's `z` namespace re-exports its ~60 locales (`z.locales`, ~250 KB of source); nothing here
 * configures one, and zod's own default is English. The bundle keeps only `en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'en-only', namespace: 'zod-locales', pluginData: path.join(path.dirname(args.importer), '../locales/en.js') }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.pluginData)};`,
      resolveDir: path.dirname(args.pluginData),
    }));
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
    minifyWhitespace: true,
    minifySyntax: true,
    // Dependencies' licence comments go to <entry>.js.LEGAL.txt beside the bundle, not into the
    // source every thread keeps (and some are not ASCII).
    legalComments: 'linked',
    // Non-ASCII characters escaped: V8 keeps each script's source in the heap, as a two-byte string
    // if one character needs it (the gateway's main.js took 1.2 MB instead of 0.6).
    charset: 'ascii',
    outExtension: { '.js': '.js' },
    // The CLI is a package of its own (npm pack tools/dist): every dependency inside, nothing to install.
    plugins: name === 'tools' ? [zodEnglishOnly] : [nativeDependencies, zodEnglishOnly],
    // ESM output has no require(): give bundled CommonJS-style code one, and __dirname for the few that ask.
    banner: {
      js: "import { createRequire as __lgCreateRequire } from 'node:module'; const require = __lgCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs).length;
  if (name !== 'tools') await compactSourceMaps(outdir);
  if (name === 'tools') await writeCliPackage(outdir);
  console.log(`built ${path.relative(root, outdir)} (${Object.keys(entries).join(', ')}) from ${inputs} source files`);
}

/** A dependency's file, or a module made by a plugin (`namespace:path`). */
const NOT_OURS = /(^|\/)node_modules\/|^[\w-]{2,}:/;

/** The entries of `all` that are used, in first-use order, and each one's new index. */
function renumbered(all) {
  const kept = [];
  const at = new Map();
  return {
    kept,
    index(old) {
      if (!at.has(old)) at.set(old, kept.push(all[old]) - 1);
      return at.get(old);
    },
  };
}

/**
 * Source maps for stack traces, sized for the heap that holds them. `--enable-source-maps`
 * decodes a bundle's whole map into the heap of the thread whose stack trace first needs it, and
 * keeps it: one array per mapping. Measured (docs/benchmarks.md): main.js's map with every
 * dependency's mappings took 33.5 MiB, more than the main thread's working set (the first logged
 * error ran it out of heap); ours alone, token by token, 7.7 MiB. So each map keeps:
 * - in our own sources, the first mapping of each original line (and those naming a symbol): a
 *   frame resolves to the right file and line, its column to the line's first token;
 * - in a dependency, one unmapped mapping where its code starts: its frames show the bundle's
 *   position and the function's own name (identifiers are not minified), never a wrong file.
 */
async function compactSourceMaps(outdir) {
  for (const file of (await readdir(outdir)).filter((f) => f.endsWith('.js.map'))) {
    const map = JSON.parse(await readFile(path.join(outdir, file), 'utf8'));
    const sources = renumbered(map.sources);
    const names = renumbered(map.names);
    const mappings = decode(map.mappings).map((line) => {
      const kept = [];
      let previous;
      for (const segment of line) {
        const ours = segment.length > 1 && !NOT_OURS.test(map.sources[segment[1]]);
        const at = ours ? `${segment[1]}:${segment[2]}` : 'theirs';
        if (at === previous && segment.length < 5) continue;
        previous = at;
        if (!ours) {
          kept.push([segment[0]]);
          continue;
        }
        const mapped = [segment[0], sources.index(segment[1]), segment[2], segment[3]];
        if (segment.length === 5) mapped.push(names.index(segment[4]));
        kept.push(mapped);
      }
      return kept;
    });
    await writeFile(
      path.join(outdir, file),
      JSON.stringify({ ...map, sources: sources.kept, names: names.kept, mappings: encode(mappings) }),
    );
  }
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
        files: [
          'cli.js',
          'cli.js.map',
          'loyalty-signing.mjs',
          'README.md',
          ...(existsSync(path.join(outdir, 'cli.js.LEGAL.txt')) ? ['cli.js.LEGAL.txt'] : []),
        ],
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
