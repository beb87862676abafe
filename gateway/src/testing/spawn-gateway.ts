import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface SpawnedGateway {
  child: ChildProcess;
  url: string;
}

/** `npm start` as a child process with the given environment; resolves with its base URL once it listens. */
export function spawnGateway(env: Record<string, string | undefined>): Promise<SpawnedGateway> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /gateway ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}`)));
  });
}

/** Resolves once the child has exited (at once if it already has). */
export const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

/** SIGTERM and wait. */
export async function stopGateway(gateway: SpawnedGateway): Promise<void> {
  gateway.child.kill('SIGTERM');
  await exited(gateway.child);
}
