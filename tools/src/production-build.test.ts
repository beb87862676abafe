import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { SourceMap, builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-build-'));

/** Bare imports a bundle leaves to node_modules at run time. */
function externalImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of code.matchAll(
    /(?:^|[;\s])(?:import|export)\s*[{*\w][^'"]*?from\s*["']([^'"./][^'"]*)["']|import\(\s*["']([^'"./][^'"]*)["']\s*\)/gm,
  )) {
    found.add((match[1] ?? match[2])!);
  }
  return [...found].sort();
}

/** The production build (`npm run build`'s bundles) run with plain node: no tsx, no TypeScript. */
describe('the production build', () => {
  beforeAll(async () => {
    for (const name of ['gateway', 'engine', 'tools']) await run(process.execPath, ['tools/build/bundle.mjs', name], { cwd: root });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bundles our packages and leaves no TypeScript tooling to load at run time (with source maps)', () => {
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'engine/dist/main.js', 'tools/dist/cli.js']) {
      const imports = externalImports(path.join(root, file));
      expect(
        imports.filter((name) => /^(tsx|typescript|@swc|esbuild|vite|vitest|@loyalty-gateway\/)/.test(name)),
        file,
      ).toEqual([]);
      expect(readdirSync(path.dirname(path.join(root, file)))).toContain(`${path.basename(file)}.map`);
    }
  });

  it("compiles the dependencies into the long-running bundles: only node's built-ins and native modules load from node_modules", () => {
    // A module resolved from node_modules is loaded whole, its source kept in each thread's heap that imports it.
    const builtins = new Set(builtinModules);
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'gateway/dist/journal-worker.js', 'engine/dist/main.js']) {
      const fromNodeModules = externalImports(path.join(root, file)).filter((name) => !name.startsWith('node:') && !builtins.has(name));
      expect(fromNodeModules, file).toEqual(['better-sqlite3']);
    }
    const main = readFileSync(path.join(root, 'gateway/dist/main.js'), 'utf8');
    // Bundled, not imported: fastify's and zod's code is in the file.
    expect(main).toContain('FST_ERR_');
    expect(main).toContain('ZodError');
    // Minified whitespace, names kept (logs name an error by its constructor; fastify-plugin names plugins by function).
    expect(main.split('\n').length).toBeLessThan(main.length / 1000);
    expect(main).toContain('GatewayError=class extends Error');
  });

  it("maps our own sources, line by line: node decodes a bundle's whole map into the heap at the first stack trace (33.5 MiB with every dependency's tokens)", () => {
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'engine/dist/main.js']) {
      const payload = JSON.parse(readFileSync(path.join(root, `${file}.map`), 'utf8'));
      expect(
        payload.sources.filter((source: string) => source.includes('node_modules/') || /^[\w-]{2,}:/.test(source)),
        file,
      ).toEqual([]);
      // What node keeps once decoded: measured 2.6 MiB for main.js (7.7 before the map was compacted). The bound is
      // against dependencies' tokens coming back (megabytes); our own code's map grows with it (200 KB for main.js at issue 37).
      expect(readFileSync(path.join(root, `${file}.map`)).length, file).toBeLessThan(250_000);
    }
    const code = readFileSync(path.join(root, 'gateway/dist/main.js'), 'utf8');
    const map = new SourceMap(JSON.parse(readFileSync(path.join(root, 'gateway/dist/main.js.map'), 'utf8')));
    const at = (text: string) => {
      const offset = code.indexOf(text);
      expect(offset, text).toBeGreaterThan(0);
      const line = code.slice(0, offset).split('\n').length - 1;
      return map.findEntry(line, offset - code.lastIndexOf('\n', offset) - 1) as { originalSource?: string; originalLine?: number };
    };
    // A frame in our code: its TypeScript file and line.
    const ours = at('remote loyalty engine: merchants, members and rewards come from');
    expect(ours.originalSource).toMatch(/(^|\/)src\/composition\/register-seeding\.ts$/);
    const source = readFileSync(path.join(root, 'gateway/src/composition/register-seeding.ts'), 'utf8').split('\n');
    expect(source[ours.originalLine!]).toContain('remote loyalty engine: merchants, members and rewards come from');
    // A frame in a dependency (fastify's hooks): no file of ours claimed for it.
    expect(at('FST_ERR_HOOK_INVALID_HANDLER').originalSource).toBeUndefined();
  });

  it("keeps only zod's English messages (the ~60 other locales zod's namespace re-exports are ~250 KB of source)", () => {
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'engine/dist/main.js']) {
      const code = readFileSync(path.join(root, file), 'utf8');
      expect(code, file).toContain('Too big: expected'); // zod's English messages (locales/en.js)
      expect(code, file).not.toContain('Zu gro'); // its German ones (locales/de.js), one of the ~60 left out
      expect(code, file).not.toContain('Ung\\xFCltige Zahl');
    }
  });

  it("writes the long-running processes' bundles in ASCII (V8 keeps a script's source in the heap: one byte a character, not two)", () => {
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'gateway/dist/journal-worker.js', 'engine/dist/main.js']) {
      const nonAscii = [...readFileSync(path.join(root, file), 'utf8').matchAll(/.{0,30}[^\x00-\x7f].{0,10}/g)].map((m) => m[0]);
      expect(nonAscii, file).toEqual([]);
    }
  });

  it('leaves the PostgreSQL, Redis and engine-service clients unloaded until configured (7 MiB less resident on SQLite)', () => {
    for (const file of ['gateway/dist/main.js', 'gateway/dist/engine-worker.js', 'engine/dist/main.js']) {
      const code = readFileSync(path.join(root, file), 'utf8');
      expect(
        externalImports(path.join(root, file)).filter((name) => ['pg', 'ioredis', 'undici'].includes(name)),
        file,
      ).toEqual([]);
      // Loaded on first use instead, by a require from the bundle's own location.
      expect(code, file).toMatch(/createRequire\d*\(import\.meta\.url\)\("pg"\)/);
    }
    const main = readFileSync(path.join(root, 'gateway/dist/main.js'), 'utf8');
    expect(main).toMatch(/createRequire\d*\(import\.meta\.url\)\("ioredis"\)/);
    // OpenTelemetry's SDK, exporter and instrumentations: required from node_modules only when OTEL_* turn
    // tracing on, never compiled in (the API alone is, as prom-client's dependency: a no-op until an SDK registers).
    for (const file of ['gateway/dist/main.js', 'engine/dist/main.js']) {
      const code = readFileSync(path.join(root, file), 'utf8');
      expect(code, file).toContain('("@opentelemetry/sdk-trace-node")');
      expect(code, file).toContain('("@fastify/otel")');
      expect(
        [...new Set(code.match(/node_modules\/(@opentelemetry\/[\w-]+|@fastify\/otel)/g))].filter((m) => !m.endsWith('/api')),
        file,
      ).toEqual([]);
    }
    expect(main).toMatch(/createRequire\d*\(import\.meta\.url\)\("undici"\)/);
  });

  it("the production start (gateway/bin/start) runs node with the heap flags and glibc's malloc settings, an operator's own values first", async () => {
    // A stand-in for node: prints the flags the build computes, then what the gateway would be started with.
    const fakeNode = path.join(dir, 'fake-node');
    writeFileSync(
      fakeNode,
      '#!/bin/sh\ncase "$1" in\n*memory-flags.js) echo "--max-old-space-size=56 --max-semi-space-size=4" ;;\n*) env | grep "^MALLOC_" | sort; echo "args: $*" ;;\nesac\n',
    );
    chmodSync(fakeNode, 0o755);
    const start = (env: Record<string, string>) =>
      run(path.join(root, 'gateway/bin/start'), [], { cwd: root, env: { PATH: process.env.PATH!, NODE: fakeNode, ...env } });
    const defaults = (await start({})).stdout.split('\n');
    expect(defaults).toEqual([
      'MALLOC_ARENA_MAX=2',
      'MALLOC_MMAP_THRESHOLD_=131072',
      'MALLOC_TRIM_THRESHOLD_=524288',
      `args: --max-old-space-size=56 --max-semi-space-size=4 --enable-source-maps ${root}/gateway/bin/../dist/main.js`,
      '',
    ]);
    const operator = (await start({ MALLOC_ARENA_MAX: '4', MALLOC_TRIM_THRESHOLD_: '0' })).stdout;
    expect(operator).toContain('MALLOC_ARENA_MAX=4\n');
    expect(operator).toContain('MALLOC_TRIM_THRESHOLD_=0\n');
    expect(operator).toContain('MALLOC_MMAP_THRESHOLD_=131072\n');
  });

  it('the compiled gateway starts with plain node, runs its engine thread and its schedules, earns a sale sent by the compiled CLI and answers a redemption naming an amount of money, never touching ICU', async () => {
    const dataDir = path.join(dir, 'data');
    const tripwireLog = path.join(dir, 'intl-calls.log');
    const env = {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_ENV: 'development',
      GATEWAY_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    // No --import, no loader: the entry `npm run start:prod` (gateway/bin/start) runs, here without its heap flags.
    // The preload only records calls into ICU (Intl and locale-aware methods), on every thread.
    const tripwire = path.join(root, 'tools/src/testing/intl-tripwire.cjs');
    const child = spawn(process.execPath, ['-r', tripwire, '--enable-source-maps', 'gateway/dist/main.js'], {
      cwd: root,
      env: { ...env, INTL_TRIPWIRE_LOG: tripwireLog },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no banner:\n${text}`)), 30_000);
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          if (/Send a signed sample sale: .*\n/.test(text)) {
            clearTimeout(timer);
            resolve(text);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${text}`)));
      });
      expect(out).toContain('loyalty engine thread started');
      expect(out).toContain('catalog scheduler started');
      const send = /Send a signed sample sale: npm run cli -- (send-sample .*)"/.exec(out)![1]!;
      const result = await run(process.execPath, ['tools/dist/cli.js', ...send.split(' ')], { cwd: root, env });
      expect(result.stdout).toMatch(/^HTTP 200 /);
      expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toMatchObject({
        status: 'processed',
        membershipId: 'MBR-DEMO-0001',
        pointsEarned: 12,
      });
      // A redemption of 100 points, then another on the same order: the 409 names what stands, "100 points ($1.00)".
      const [, customerType, customerValue] = /--customer (\w+):(\S+)/.exec(send)!;
      const sendArgs = send
        .replace(/^send-sample /, '')
        .replace(/ --customer \S+/, '')
        .split(' ');
      const redeem = async (points: number) => {
        const file = path.join(dir, `redeem-${points}.json`);
        const customer = { type: customerType, value: customerValue };
        writeFileSync(file, JSON.stringify({ customer, externalTransactionId: 'ORDER-ICU-1', pointsToRedeem: points }));
        const args = ['tools/dist/cli.js', 'send', ...sendArgs, '--path', '/v1/redemption/redeem', '--file', file];
        // The CLI exits 1 on an answer other than 200.
        return run(process.execPath, args, { cwd: root, env }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      };
      expect((await redeem(100)).stdout).toMatch(/^HTTP 200 /);
      const again = await redeem(50);
      expect(again.stdout).toMatch(/^HTTP 409 /);
      expect(again.stdout).toContain('100 points ($1.00) were deducted then');
      // ICU's data, once touched, stays resident: 8–9 MiB of RSS (docs/benchmarks.md). Nothing the
      // gateway does at start, in its schedules, for a sale or in a message that names an amount of
      // money (engine/src/rules/format-money.ts) needs it.
      expect(existsSync(tripwireLog) ? readFileSync(tripwireLog, 'utf8') : '').toBe('');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  }, 90_000);
});

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
/** The shell lines of README's "Run it" section, comments dropped. */
const runItLines = (): string[] =>
  [...readme.slice(readme.indexOf('## Run it'), readme.indexOf('\n## ', readme.indexOf('## Run it') + 1)).matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');

/**
 * A fresh clone: the repository's files (tracked, and new ones not ignored) in a directory of their
 * own, without a dist/ or a .data/. `npm ci` is not run again (it would take minutes and the
 * network): its node_modules are linked in, each package to the one installed, and our workspace
 * packages to the clone's own, as npm links them.
 */
async function freshClone(into: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(path.join(root, f)))) {
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(into, file));
  }
  chmodSync(path.join(into, 'gateway/bin/start'), 0o755);
  mkdirSync(path.join(into, 'node_modules/@loyalty-gateway'), { recursive: true });
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry !== '@loyalty-gateway') symlinkSync(path.join(root, 'node_modules', entry), path.join(into, 'node_modules', entry));
  }
  for (const entry of readdirSync(path.join(root, 'node_modules/@loyalty-gateway'))) {
    symlinkSync(
      readlinkSync(path.join(root, 'node_modules/@loyalty-gateway', entry)),
      path.join(into, 'node_modules/@loyalty-gateway', entry),
    );
  }
}

describe("README's commands, as written, on a fresh clone", () => {
  const clone = path.join(dir, 'clone');

  it('every npm script the README runs exists', () => {
    const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const lines = runItLines();
    expect(lines).toContain('npm ci && npm start');
    for (const line of lines)
      for (const [, script] of line.matchAll(/npm (?:run )?([\w:-]+)/g))
        if (!['ci', 'run', 'pack'].includes(script!)) expect(Object.keys(scripts), `${line}: npm ${script}`).toContain(script);
  });

  it("the CLI's own package: the README's pack line builds it and packs it (npm pack ./tools/dist alone failed: no dist on a fresh clone)", async () => {
    const pack = /`(npm run build -w tools && npm pack \.\/tools\/dist)`/.exec(readme)?.[1];
    expect(pack, 'README names the pack line').toBeDefined();
    await freshClone(clone);
    expect(existsSync(path.join(clone, 'tools/dist'))).toBe(false);
    await run('sh', ['-c', pack!], { cwd: clone, env: { ...process.env, npm_config_loglevel: 'warn' } });
    const tarball = readdirSync(clone).find((file) => /^loyalty-gateway-cli-.*\.tgz$/.test(file));
    expect(tarball).toBeDefined();
    const { stdout } = await run('tar', ['-tzf', path.join(clone, tarball!)]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['package/cli.js', 'package/package.json', 'package/loyalty-signing.mjs']));
    // The packed CLI runs with plain node.
    await run('tar', ['-xzf', path.join(clone, tarball!), '-C', dir]);
    expect((await run(process.execPath, [path.join(dir, 'package/cli.js'), '--help'])).stdout).toContain(
      'loyalty-gateway <command> [flags]',
    );
  }, 120_000);

  it("npm start as written: the gateway starts, prints its admin token, and the README's admin command works with it", async () => {
    if (!existsSync(clone)) await freshClone(clone);
    // PORT=0: any free port (the README's 3000 may be taken where tests run); the CLI is pointed at it with GATEWAY_URL.
    const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, PORT: '0', LOG_LEVEL: 'info' };
    // Its own process group: npm start runs the gateway as its child, and the group is stopped together.
    const child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no banner:\n${text}`)), 60_000);
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          if (/Send a signed sample sale: .*\n/.test(text)) {
            clearTimeout(timer);
            resolve(text);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${text}`)));
      });
      const url = /gateway ready on (http:\/\/\S+?)"/.exec(out)![1]!;
      const token = readFileSync(path.join(clone, '.data/admin-token'), 'utf8').trim();
      expect(out).toContain(`Admin: console ${url}/console, admin API ${url}/admin, metrics ${url}/metrics; admin token ${token}`);
      const admin = runItLines().find((line) => line.startsWith('GATEWAY_ADMIN_TOKEN=$(cat .data/admin-token) npm run cli -- admin '));
      expect(admin, "README's admin command").toBeDefined();
      const answer = await run('sh', ['-c', admin!], { cwd: clone, env: { ...env, GATEWAY_URL: url } });
      expect(answer.stderr).not.toContain('error:');
    } finally {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  }, 120_000);
});
