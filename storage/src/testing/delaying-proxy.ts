import net from 'node:net';

export interface DelayingProxy {
  /** The target's URL with the proxy's address in place of the server's. */
  url: string;
  /** The client's flights so far: writes after a quiet gap, each one round trip. */
  flights(): number;
  close(): Promise<void>;
}

/** How long the proxy holds each of the server's answers back: any query sent after an answer comes this much later. */
const ANSWER_DELAY_MS = 40;
/** Writes of the client closer together than this are one flight (written back to back, not waiting for an answer). */
const SAME_FLIGHT_MS = 10;

/**
 * A TCP proxy in front of the PostgreSQL server that holds each answer back for ANSWER_DELAY_MS
 * and counts the client's flights: a write that comes after a quiet gap starts one. A query sent
 * once the previous one was answered is a flight of its own; queries written back to back share one.
 */
export async function delayingProxy(target: URL): Promise<DelayingProxy> {
  let flights = 0;
  let lastWrite = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      const now = Date.now();
      if (now - lastWrite > SAME_FLIGHT_MS) flights++;
      lastWrite = now;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), ANSWER_DELAY_MS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);
  return {
    url: proxied.toString(),
    flights: () => flights,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
