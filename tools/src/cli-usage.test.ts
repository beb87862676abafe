import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The CLI as `npm run cli --` runs it: exit code, stdout, stderr. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tools/src/cli.ts', ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe("the CLI's usage", () => {
  it.each(['certify', 'deliveries', 'sign', 'send', 'send-sample'])(
    "`%s --help` prints that command's usage and exits 0, no stack trace",
    async (command) => {
      const result = await cli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^loyalty-gateway ${command} `));
      expect(result.stderr).not.toContain('    at ');
    },
  );

  it("an unknown option is named in plain words with the command's usage, exit 2, no stack trace", async () => {
    const result = await cli(['sign', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^sign: --bogus is not an option of this command\n\nloyalty-gateway sign /);
    expect(result.stderr).not.toContain('    at ');
  });

  it('GATEWAY_URL stands in for --url', async () => {
    const missing = await cli(['send-sample', '--vendor', 'v', '--store', 's', '--secret', 'x'], { GATEWAY_URL: '' });
    expect(missing.stderr).toContain('missing --url');
    // A closed port: the URL was taken from the environment (the failure names it).
    const taken = await cli(['send-sample', '--vendor', 'v', '--store', 's', '--secret', 'x'], { GATEWAY_URL: 'http://127.0.0.1:9' });
    expect(taken.stderr).not.toContain('missing --url');
    expect(taken.code).not.toBe(0);
    // …and says why in words a vendor can act on: which URL, and the reason (not undici's bare "fetch failed").
    expect(taken.stderr.trim()).toBe('cannot reach http://127.0.0.1:9/webhooks/generic: bad port'); // fetch never calls port 9
  });

  it("a gateway that cannot be reached is named with the system's reason, exit 1, no stack trace", async () => {
    // A port that was just free: nothing listens there now.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await cli(['send-sample', '--url', `http://127.0.0.1:${port}`, '--vendor', 'v', '--store', 's', '--secret', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`cannot reach http://127.0.0.1:${port}/webhooks/generic: connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});
