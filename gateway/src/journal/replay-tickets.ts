import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The header an in-process replay carries its ticket in (never honoured from outside: see `take`). */
export const REPLAY_HEADER = 'x-gateway-replay';

/** What a replayed request is: which delivery it replays, who asked, and the original's receipt time. */
export interface ReplayTicket {
  replayOf: string;
  replayedBy: string;
  /** Milliseconds since the epoch: the door authenticates the request as at its first receipt. */
  receivedAt: number;
}

/**
 * Tickets for replaying a kept request through its own door (`app.inject`): the admin replay
 * issues one, the door takes it. A ticket is a random key known only to this process, used once,
 * gone after a minute; a request from outside naming one it does not hold is an ordinary request
 * (the header is removed before anything reads the request), so nobody outside can claim a replay.
 */
export function createReplayTickets(ttlMs = 60_000) {
  const open = new Map<string, ReplayTicket>();
  return {
    issue(ticket: ReplayTicket): string {
      const key = randomBytes(18).toString('base64url');
      open.set(key, ticket);
      setTimeout(() => open.delete(key), ttlMs).unref();
      return key;
    },
    /** The request's ticket, if this process issued it and it is unused; the header is removed either way. */
    take(request: FastifyRequest): ReplayTicket | null {
      const key = request.headers[REPLAY_HEADER];
      if (key === undefined) return null;
      delete request.headers[REPLAY_HEADER];
      if (typeof key !== 'string') return null;
      const ticket = open.get(key) ?? null;
      open.delete(key);
      return ticket;
    },
  };
}

export type ReplayTickets = ReturnType<typeof createReplayTickets>;
