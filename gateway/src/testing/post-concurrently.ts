import { headersFor } from './gateway-fixture.js';

export type ConcurrentAnswer = {
  status: number;
  body: { status?: string; code?: string; pointsDeducted?: number; walletBalance?: number };
};

/** POST every body to `address + path` at once over real sockets (signed), answers in order. */
export function postConcurrently(address: string, path: string, bodies: string[]): Promise<ConcurrentAnswer[]> {
  return Promise.all(
    bodies.map((body) =>
      fetch(`${address}${path}`, { method: 'POST', headers: headersFor(body), body }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as ConcurrentAnswer['body'],
      })),
    ),
  );
}
