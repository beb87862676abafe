import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** One answer read off the socket: status, headers (names lower-cased, every value kept), body (chunked bodies joined). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string[]>;
  body: Buffer;
}

/** What one request got: its final answer (interim 1xx answers skipped), and how the connection ended, if it did. */
export interface RawExchange {
  answer: RawAnswer | null;
  /**
   * `open`: kept alive for the next request; `clean`: the server closed its side (FIN) after
   * answering; `reset`: a socket error (a reset, a broken pipe); `timeout`: no answer, or no close
   * after `Connection: close`, within the exchange's time.
   */
  connection: 'open' | 'clean' | 'reset' | 'timeout';
  /** Bytes that came after the final answer on a kept-alive connection: an answer to a request nobody sent. */
  extra: Buffer;
  /** The socket error, when there was one. */
  error?: string;
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');

type Parsed = { answer: RawAnswer; used: number } | 'incomplete' | { error: string };

/** The chunked body starting at `start`: its bytes and where it ends (after the trailers), or incomplete. */
function readChunked(buffer: Buffer, start: number): { body: Buffer; end: number } | 'incomplete' | { error: string } {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return 'incomplete';
    const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (Number.isNaN(size)) return { error: `bad chunk size line ${JSON.stringify(buffer.subarray(at, lineEnd).toString('latin1'))}` };
    at = lineEnd + 2;
    if (size === 0) {
      const trailersEnd = buffer.indexOf('\r\n', at);
      if (trailersEnd === -1) return 'incomplete';
      if (trailersEnd === at) return { body: Buffer.concat(parts), end: at + 2 };
      const end = buffer.indexOf(CRLF_CRLF, at);
      return end === -1 ? 'incomplete' : { body: Buffer.concat(parts), end: end + 4 };
    }
    if (buffer.length < at + size + 2) return 'incomplete';
    parts.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}

/**
 * One answer from the front of `buffer`: a status line, headers, and a body framed by
 * Transfer-Encoding or Content-Length (or by the close when neither: `ended`). A HEAD request's
 * answer, 1xx, 204 and 304 have no body.
 */
function parseAnswer(buffer: Buffer, head: boolean, ended: boolean): Parsed {
  const headEnd = buffer.indexOf(CRLF_CRLF);
  if (headEnd === -1) return ended && buffer.length > 0 ? { error: 'the connection closed inside an answer head' } : 'incomplete';
  const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) return { error: `not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 80))}` };
  const status = Number(match[1]);
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `a header line without a name: ${JSON.stringify(line.slice(0, 80))}` };
    const name = line.slice(0, colon).toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const bodyStart = headEnd + 4;
  if (head || status < 200 || status === 204 || status === 304)
    return { answer: { status, headers, body: Buffer.alloc(0) }, used: bodyStart };
  if (headers['transfer-encoding']?.some((v) => /chunked/i.test(v))) {
    const chunked = readChunked(buffer, bodyStart);
    if (chunked === 'incomplete') return ended ? { error: 'the connection closed inside a chunked body' } : 'incomplete';
    if ('error' in chunked) return chunked;
    return { answer: { status, headers, body: chunked.body }, used: chunked.end };
  }
  const lengths = headers['content-length'];
  if (lengths) {
    const length = Number(lengths[0]);
    if (lengths.length > 1 || !Number.isSafeInteger(length) || length < 0) return { error: `Content-Length ${lengths.join(', ')}` };
    if (buffer.length < bodyStart + length) return ended ? { error: 'the connection closed inside a body' } : 'incomplete';
    return { answer: { status, headers, body: buffer.subarray(bodyStart, bodyStart + length) }, used: bodyStart + length };
  }
  // Neither: the body runs to the close.
  return ended ? { answer: { status, headers, body: buffer.subarray(bodyStart) }, used: buffer.length } : 'incomplete';
}

/**
 * A client connection written byte for byte: requests go out exactly as given (duplicated or
 * conflicting framing headers, non-ASCII bytes, any method or version), which neither fetch nor
 * undici nor inject() let a test send. Answers are read with a small parser of its own, so what
 * the server wrote on the wire is what the test judges.
 */
export class RawHttpConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private failure: string | undefined;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('end', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.failure ??= error.code ?? error.message;
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  static open(port: number): Promise<RawHttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      socket.once('connect', () => resolve(new RawHttpConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** The same over TLS (the mTLS listener), trusting the server certificate signed by `caPem`. */
  static openTls(port: number, caPem: string): Promise<RawHttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connectTls({ host: '127.0.0.1', port, servername: 'localhost', ca: caPem });
      socket.once('secureConnect', () => resolve(new RawHttpConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Whether the server closed this connection (or it failed): a new one is needed. */
  get closed(): boolean {
    return this.ended || this.failure !== undefined || this.socket.destroyed;
  }

  /** Bytes received while no request was outstanding. */
  get unsolicited(): Buffer {
    return this.buffer;
  }

  private async until(ready: () => boolean, deadline: number): Promise<boolean> {
    while (!ready()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    return true;
  }

  /**
   * Write `request` and read its final answer; after an answer that closes the connection
   * (`Connection: close`), wait for the server's close. `head`: the request is a HEAD (no body).
   */
  async exchange(request: Buffer, options: { head?: boolean; timeoutMs?: number } = {}): Promise<RawExchange> {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    this.buffer = Buffer.alloc(0);
    this.socket.write(request, () => undefined);
    let answer: RawAnswer | null = null;
    let problem: string | undefined;
    await this.until(() => {
      for (;;) {
        const parsed = parseAnswer(this.buffer, options.head ?? false, this.ended);
        if (parsed === 'incomplete') return this.ended || this.failure !== undefined;
        if ('error' in parsed) {
          problem = parsed.error;
          return true;
        }
        this.buffer = this.buffer.subarray(parsed.used);
        if (parsed.answer.status >= 200) {
          answer = parsed.answer;
          return true;
        }
      }
    }, deadline);
    if (problem) return { answer: null, connection: this.failure ? 'reset' : 'timeout', extra: this.buffer, error: problem };
    const final = answer as RawAnswer | null;
    const closing = final?.headers.connection?.some((v) => /close/i.test(v)) ?? false;
    if (final && closing) await this.until(() => this.ended || this.failure !== undefined, deadline);
    const connection = this.failure !== undefined ? 'reset' : this.ended ? 'clean' : final && !closing ? 'open' : 'timeout';
    if (connection === 'open' || connection === 'timeout') {
      // Give the server a moment to show an answer to a request nobody sent (a request smuggled in a body).
      await this.until(() => this.buffer.length > 0, Date.now() + 5);
    }
    if (connection !== 'open') this.socket.destroy();
    return { answer: final, connection, extra: this.buffer, ...(this.failure ? { error: this.failure } : {}) };
  }

  close(): void {
    this.socket.destroy();
  }
}
