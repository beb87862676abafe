import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The data directory holds connection secrets (sealed), the generated master key in development
 * and uat, the journal's kept requests and the engine's members: readable by the gateway's user
 * only. The directory is made (or set to) 0700; each SQLite file is created 0600 before SQLite
 * opens it (or set to 0600 when an older build left it readable by others), and SQLite gives the
 * WAL and shared-memory files it creates beside a database the database file's permissions.
 */
export async function privateDataDir(dataDir: string, sqliteFiles: readonly string[]): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  for (const name of sqliteFiles) {
    for (const file of [name, `${name}-wal`, `${name}-shm`]) {
      const path = join(dataDir, file);
      // 'a': created when missing, never truncated; the mode applies to a file it creates.
      const handle = file === name ? await open(path, 'a', 0o600) : await open(path, 'r').catch(() => null);
      try {
        await handle?.chmod(0o600);
      } finally {
        await handle?.close();
      }
    }
  }
}
