import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VendorApiError, createHttpClient, type ResolvedAddress } from './http-client.js';
import { DEVELOPMENT_OUTBOUND_POLICY, type OutboundPolicy } from './outbound-url.js';

// The outbound rule judged where it matters: the address a call actually connects to. Names are
// resolved by a local resolver each test injects (never real DNS), so a name resolving inward and a
// name re-resolving inward between two calls (DNS rebinding) are tested on real sockets.
const PRODUCTION: OutboundPolicy = { allowLoopback: false, allowHosts: [] };

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** A TCP listener that counts connections and does what `onSocket` says with each. */
async function tcpServer(onSocket: (socket: Socket) => void = (s) => s.destroy()) {
  const seen = { connections: 0 };
  const port = await listen(
    createServer((socket) => {
      seen.connections += 1;
      sockets.add(socket);
      onSocket(socket);
    }),
  );
  return { port, seen };
}

/** A JSON server that closes each connection after answering, so every call connects (and resolves) again. */
async function jsonServer() {
  const seen = { requests: 0 };
  const port = await listen(
    createHttpServer((_req, res) => {
      seen.requests += 1;
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"ok":true}');
    }),
  );
  return { port, seen };
}

/** A resolver answering each name from a script, recording what it was asked. */
function resolver(answers: Record<string, Array<ResolvedAddress[]>>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const next = answers[hostname.replace(/\.$/, '')]?.shift(); // a final dot names the same host (the DNS root)
    if (!next) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return next;
  };
  return { resolve, asked };
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e as VendorApiError,
  );

describe('names are judged by the addresses they resolve to, at connect time', () => {
  it('production: a name resolving to loopback is refused by the outbound policy and nothing connects', async () => {
    const { port, seen } = await tcpServer();
    const { resolve, asked } = resolver({ 'api.vendor.test': [[v4('127.0.0.1')]] });
    const error = await failure(
      createHttpClient({ outbound: PRODUCTION, resolve, maxAttempts: 3 }).json(`https://api.vendor.test:${port}/v2/orders`),
    );
    expect(error).toBeInstanceOf(VendorApiError);
    expect(error).toMatchObject({
      status: 400,
      retryable: false,
      message: `vendor API call to api.vendor.test:${port} refused by the outbound policy: api.vendor.test resolves to a loopback address, refused in production`,
    });
    expect(asked).toEqual(['api.vendor.test']); // not retried: the policy's answer does not change
    expect(seen.connections).toBe(0);
  });

  it.each([
    [[v4('169.254.169.254')], 'a cloud metadata address'],
    [[v6('::ffff:169.254.169.254')], 'a cloud metadata address'],
    [[v6('fd00:ec2::254')], 'a cloud metadata address'],
    [[v4('169.254.1.1')], 'a link-local address'],
    [[v6('fe80::1')], 'a link-local address'],
  ])('everywhere: a name resolving to %j (%s) is refused', async (addresses, what) => {
    for (const outbound of [PRODUCTION, DEVELOPMENT_OUTBOUND_POLICY, { allowLoopback: false, allowHosts: ['api.vendor.test'] }]) {
      const { resolve } = resolver({ 'api.vendor.test': [addresses] });
      const error = await failure(createHttpClient({ outbound, resolve, maxAttempts: 1 }).json('https://api.vendor.test/v2/orders'));
      expect(error.message).toBe(`vendor API call to api.vendor.test refused by the outbound policy: api.vendor.test resolves to ${what}`);
      expect(error.retryable).toBe(false);
    }
  });

  it('production: one inward address among public ones refuses the name (no address of it is tried)', async () => {
    const { resolve } = resolver({ 'api.vendor.test': [[v4('203.0.113.10'), v6('::ffff:10.0.0.5')]] });
    const error = await failure(createHttpClient({ outbound: PRODUCTION, resolve, maxAttempts: 1 }).json('https://api.vendor.test/x'));
    expect(error.message).toBe(
      'vendor API call to api.vendor.test refused by the outbound policy: api.vendor.test resolves to a private address; allow the host with GATEWAY_OUTBOUND_ALLOW',
    );
  });

  it('DNS rebinding: a name that resolved to an allowed address and now resolves inward fails the next call the same way', async () => {
    // Outside production loopback is allowed (a local sandboxed vendor); a private address is not.
    // The listener speaks no TLS: the first call connects (counted) and fails its handshake.
    const { port, seen } = await tcpServer();
    const { resolve, asked } = resolver({ 'sandbox.vendor.test': [[v4('127.0.0.1')], [v4('10.0.0.5')]] });
    const client = createHttpClient({ outbound: DEVELOPMENT_OUTBOUND_POLICY, resolve, maxAttempts: 1 });
    const url = `https://sandbox.vendor.test:${port}/v2/orders`;
    expect((await failure(client.json(url))).message).toBe(`could not connect to sandbox.vendor.test:${port}`);
    expect(seen.connections).toBe(1);
    expect((await failure(client.json(url))).message).toBe(
      `vendor API call to sandbox.vendor.test:${port} refused by the outbound policy: sandbox.vendor.test resolves to a private address; allow the host with GATEWAY_OUTBOUND_ALLOW`,
    );
    expect(asked).toEqual(['sandbox.vendor.test', 'sandbox.vendor.test']);
    expect(seen.connections).toBe(1);
  });

  it('a host in GATEWAY_OUTBOUND_ALLOW may resolve to a private or loopback address (an on-premises ERP)', async () => {
    const { port, seen } = await jsonServer();
    const { resolve } = resolver({ 'erp.internal': [[v4('127.0.0.1')], [v4('127.0.0.1')]] });
    const client = createHttpClient({ outbound: { allowLoopback: false, allowHosts: ['erp.internal'] }, resolve, maxAttempts: 1 });
    await expect(client.json(`http://erp.internal:${port}/api`)).resolves.toEqual({ ok: true });
    await expect(client.json(`http://ERP.internal.:${port}/api`)).resolves.toEqual({ ok: true }); // a trailing dot is the same host
    expect(seen.requests).toBe(2);
  });
});

describe('a call that gets no answer says so in one message, whatever the port did', () => {
  it('refused, reset, silent, or not TLS: all "could not connect to HOST", retryable', async () => {
    const closed = await tcpServer();
    await new Promise<void>((r) => servers.pop()!.close(() => r()));
    const reset = await tcpServer((s) => s.resetAndDestroy());
    const silent = await tcpServer(() => undefined);
    const garbage = await tcpServer((s) => s.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const client = createHttpClient({ maxAttempts: 1, timeoutMs: 300 });
    for (const [scheme, port] of [
      ['http', closed.port],
      ['http', reset.port],
      ['http', silent.port],
      ['http', garbage.port],
      ['https', garbage.port],
    ] as const) {
      const error = await failure(client.json(`${scheme}://127.0.0.1:${port}/v2/orders`));
      expect(error, `${scheme} ${port}`).toMatchObject({ status: 0, retryable: true, message: `could not connect to 127.0.0.1:${port}` });
    }
  });

  it('a name that does not resolve is the same message', async () => {
    const { resolve } = resolver({});
    const error = await failure(createHttpClient({ maxAttempts: 1, resolve }).json('https://nowhere.vendor.test/x'));
    expect(error).toMatchObject({ status: 0, message: 'could not connect to nowhere.vendor.test' });
  });
});
