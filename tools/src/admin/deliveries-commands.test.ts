import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from './run-admin-command.js';

/** What the CLI asks the gateway for `deliveries …`: a stand-in gateway that records each request and answers {}. */
const seen: Array<{ method: string; url: string; body: string }> = [];
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const run = (...argv: string[]) =>
  runAdminCommand([...argv, '--url', url, '--json'], {
    env: { GATEWAY_ADMIN_TOKEN: 'adm_cli_test_token_0123456789abcdef' },
    out: () => {},
    err: () => {},
  });

describe('deliveries commands', () => {
  it('list --request-id lists every delivery carrying that X-Request-ID', async () => {
    expect(await run('deliveries', 'list', '--request-id', 'VENDOR-REQ-1')).toBe(0);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/admin/deliveries?requestId=VENDOR-REQ-1' });
  });

  it('list --nothing-earned lists the processed sales that earned nothing; --reason narrows them to one reason', async () => {
    expect(await run('deliveries', 'list', '--nothing-earned')).toBe(0);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/admin/deliveries?nothingEarned=any' });
    expect(await run('deliveries', 'list', '--nothing-earned', '--reason', 'walk_in', '--store', 'store-001')).toBe(0);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/admin/deliveries?store=store-001&nothingEarned=walk_in' });
  });

  it('replay --force asks for a forced replay; without it the body says nothing', async () => {
    expect(await run('deliveries', 'replay', 'J-1', '--force')).toBe(0);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/admin/deliveries/J-1/replay' });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ force: true });
    expect(await run('deliveries', 'replay', 'J-1')).toBe(0);
    expect(seen.at(-1)!.body === '' || JSON.parse(seen.at(-1)!.body) === null || seen.at(-1)!.body === '{}').toBe(true);
  });
});
