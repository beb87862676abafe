import { execFile, execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

const BIN = '/usr/lib/postgresql/15/bin';

/**
 * Whether this machine can start a PostgreSQL cluster of its own for a fault test: Debian's
 * PostgreSQL 15 binaries, a `postgres` user, and root to run them as it (CI and these machines).
 */
export function canRunThrowawayPostgres(): boolean {
  if (process.getuid?.() !== 0 || !existsSync(`${BIN}/initdb`)) return false;
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface ThrowawayPostgres {
  url: string;
  port: number;
  /**
   * `pg_ctl restart -m fast`: every connection is terminated (57P01), then the server is back.
   * Asynchronous, so a load the test runs keeps sending through the restart.
   */
  restart(): Promise<void>;
  stop(): void;
  start(): void;
  /** Stop and delete the cluster. */
  destroy(): void;
}

/**
 * A PostgreSQL cluster of its own on a free loopback port (initdb ~1 s): for tests that restart or
 * stop the database, or need server settings of their own (`settings`: name → value), never the
 * shared server.
 */
export async function startThrowawayPostgres(settings: Record<string, string> = {}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-pg-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sockets');
  execFileSync('mkdir', ['-p', data, sockets]);
  for (const d of [dir, data, sockets])
    chownSync(d, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  // runuser's arguments that run one of the server's programs as postgres.
  const asPostgres = (command: string, ...args: string[]) => ['-u', 'postgres', '--', `${BIN}/${command}`, ...args];
  const quietly: ExecFileSyncOptions = { stdio: ['ignore', 'ignore', 'pipe'] };
  execFileSync('runuser', asPostgres('initdb', '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'), quietly);
  const port = await freePort();
  const options = [
    `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  const pgCtl = (...args: string[]) => asPostgres('pg_ctl', '-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', ...args);
  const ctl = (...args: string[]) => execFileSync('runuser', pgCtl(...args), quietly);
  ctl('start');
  const run = promisify(execFile);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      await run('runuser', pgCtl('restart', '-m', 'fast'));
    },
    stop: () => ctl('stop', '-m', 'fast'),
    start: () => ctl('start'),
    destroy() {
      try {
        ctl('stop', '-m', 'immediate');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
