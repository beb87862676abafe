import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[]; engines: { node: string } };

/** The manifests `npm ci` reads: the root's, the lock file and each workspace's package.json. */
function copyManifests(into: string): void {
  copyFileSync(path.join(root, 'package.json'), path.join(into, 'package.json'));
  copyFileSync(path.join(root, 'package-lock.json'), path.join(into, 'package-lock.json'));
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { link?: boolean }> };
  // The workspaces as the lock file lists them (adapters/* expanded).
  const workspaces = Object.keys(lock.packages).filter((key) => key !== '' && !key.includes('node_modules/'));
  for (const workspace of workspaces) {
    mkdirSync(path.join(into, workspace), { recursive: true });
    copyFileSync(path.join(root, workspace, 'package.json'), path.join(into, workspace, 'package.json'));
  }
}

describe('the Node.js versions the project supports', () => {
  it(`npm ci on this Node (${process.version}) warns of no package needing another Node (EBADENGINE)`, async () => {
    // A dry run of the lock file in a copy of the manifests: npm checks every package's engines
    // as a real install does, without touching the node_modules the other tests run from.
    copyManifests(dir);
    const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    const output = `${stdout}${stderr}`;
    expect(output).toMatch(/added \d+ packages/);
    expect(output.split('\n').filter((line) => line.includes('EBADENGINE'))).toEqual([]);
  }, 60_000);

  it('the engines range says 20.19 or newer, as the README does', () => {
    expect(manifest.engines.node).toBe('>=20.19');
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('20.19');
  });
});
