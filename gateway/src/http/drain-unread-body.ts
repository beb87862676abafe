import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { BODY_LIMIT } from './body-limit.js';

export interface DrainLimits {
  /** Bytes read and discarded after the answer at most; past them the connection is cut. */
  maxBytes: number;
  /** Longest a drain waits for the next byte. */
  idleMs: number;
  /** Longest a drain lasts in all. */
  maxMs: number;
}

/** 4× the body limit: a 3 MB body of an ordinary client is read whole, a 100 MB one is not. */
export const DRAIN_LIMITS: Readonly<DrainLimits> = Object.freeze({ maxBytes: 4 * BODY_LIMIT, idleMs: 2_000, maxMs: 10_000 });

const draining = new WeakSet<Socket>();

/** Whether `socket` is being drained: its request was answered already, what still comes is discarded. */
export const isDraining = (socket: Socket): boolean => draining.has(socket);

/**
 * Closes a connection whose answer went out before its request was read whole (413 judged on
 * Content-Length, a 401 decided from the headers, Node's 431 or 408) without resetting it: the
 * answer is sent and our side half-closed, and whatever the client still sends is read and
 * discarded until it closes its side, or `maxBytes` were read, or it went quiet for `idleMs`, or
 * `maxMs` passed; then the socket is destroyed. Closing a socket that has unread bytes makes the
 * kernel answer with a reset, and a client that writes its whole body before reading (Python's
 * http.client, `requests`) then gets a broken pipe or a reset instead of the answer already sent.
 *
 * `request`: the unread request, when Node's HTTP parser still reads the socket (an answer from a
 * route or hook): its stream is read from now on, before the answer is written, because the
 * parser stops reading a socket whose request nobody reads (after 64 KiB) and does not start
 * again once the answer has gone. Without it (Node refused the request: 431, 408, 400) the socket
 * itself is read. Node's HTTP server closes a `Connection: close` answer's socket with
 * `destroySoon()` once the answer is written; that one socket's `destroySoon` is replaced by the
 * drain, so the answer is written exactly as before and only the close changes.
 */
export function drainUnreadBody(socket: Socket, request?: Readable, limits: DrainLimits = DRAIN_LIMITS): void {
  if (draining.has(socket) || socket.destroyed) return;
  draining.add(socket);
  const started = Date.now();
  let read = 0;
  let lastByteAt = started;
  const discard = (chunk: Buffer) => {
    read += chunk.length;
    lastByteAt = Date.now();
    if (read > limits.maxBytes) socket.destroy();
  };
  const source: Readable = request ?? socket;
  source.on('data', discard);
  source.resume();
  let timer: NodeJS.Timeout | undefined;
  socket.once('close', () => clearInterval(timer));
  socket.destroySoon = function drainThenDestroy(this: Socket) {
    if (this.destroyed || timer) return;
    if (this.writable) this.end();
    timer = setInterval(
      () => {
        const now = Date.now();
        if (now - lastByteAt >= limits.idleMs || now - started >= limits.maxMs) this.destroy();
      },
      Math.min(100, limits.idleMs),
    );
    timer.unref();
  };
}
