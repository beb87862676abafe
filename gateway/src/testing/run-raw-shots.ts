import { ErrorBody } from '@loyalty-gateway/core';
import type { RawShot } from './hostile-http.js';
import { RawHttpConnection, type RawAnswer, type RawExchange } from './raw-http-connection.js';

/** Codes of answers written before a request was parsed (Node refused its bytes): they cannot echo its X-Request-ID. */
const BEFORE_PARSING = new Set(['malformed_request', 'headers_too_large', 'request_timeout']);

/** The answer's body as JSON, or undefined. */
export function answerJson(answer: RawAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const brief = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * What is wrong with the answer to `shot`, by the rules every answer keeps: an answer at all, on a
 * connection that stays usable or is closed cleanly, and no answer to a request nobody sent; never
 * a 5xx unless `allowed` says it is the documented one; every answer carrying X-Request-ID (the
 * request's own when it sent an acceptable one); every refusal the spec's Error body agreeing with
 * its status and that id, a 422 naming its fields.
 */
export function answerProblems(shot: RawShot, exchange: RawExchange, allowed?: (status: number, body: unknown) => boolean): string[] {
  const at = brief(shot.kind, 400);
  const { answer } = exchange;
  if (!answer) return [`no answer (${exchange.connection}${exchange.error ? `: ${exchange.error}` : ''}) to ${at}`];
  const problems: string[] = [];
  const text = brief(answer.body.toString('utf8'));
  if (exchange.connection === 'reset' || exchange.connection === 'timeout')
    problems.push(`connection ${exchange.connection} after a ${answer.status} (${exchange.error ?? 'no close'}) to ${at}`);
  if (exchange.extra.length > 0) problems.push(`an answer nobody asked for (${brief(exchange.extra.toString('latin1'), 120)}) after ${at}`);
  const body = answerJson(answer);
  if (answer.status >= 500 && !allowed?.(answer.status, body)) problems.push(`${answer.status} ${text} to ${at}`);
  const ids = answer.headers['x-request-id'] ?? [];
  if (ids.length !== 1) problems.push(`${ids.length} X-Request-ID headers on a ${answer.status} to ${at}`);
  const error = answer.status >= 300 && !shot.head ? ErrorBody.safeParse(body) : undefined;
  if (error && !error.success) problems.push(`${answer.status} not an Error body: ${text} to ${at}`);
  else if (error?.success) {
    const { statusCode, requestId, code, fields } = error.data;
    if (statusCode !== answer.status || requestId !== ids[0]) problems.push(`${answer.status} Error body disagrees: ${text} to ${at}`);
    if (statusCode === 422 && !fields?.length) problems.push(`422 without fields: ${text} to ${at}`);
    if (shot.requestId !== undefined && !BEFORE_PARSING.has(code) && requestId !== shot.requestId)
      problems.push(`${answer.status} requestId ${requestId}, not the request's ${shot.requestId}, to ${at}`);
  } else if (shot.requestId !== undefined && ids[0] !== shot.requestId && answer.status < 300) {
    problems.push(`${answer.status} X-Request-ID ${ids[0]}, not the request's ${shot.requestId}, to ${at}`);
  }
  return problems;
}

export interface RawRun {
  /** Answers by status (0: none). */
  statuses: Map<number, number>;
  problems: string[];
}

/**
 * `shots` against 127.0.0.1:`port` over `connections` keep-alive connections side by side, each
 * request written whole and its answer read before the next; a connection the server closed is
 * replaced. `judge` sees every answer (`answerProblems` with the surface's own checks).
 */
export async function runRawShots(
  port: number,
  shots: readonly RawShot[],
  judge: (shot: RawShot, exchange: RawExchange) => string[] | Promise<string[]>,
  connections = 16,
): Promise<RawRun> {
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    let connection: RawHttpConnection | undefined;
    let previous: RawShot | undefined;
    for (let i = next++; i < shots.length; i = next++) {
      const shot = shots[i]!;
      if (connection && connection.unsolicited.length > 0)
        problems.push(
          `an answer nobody asked for (${brief(connection.unsolicited.toString('latin1'), 120)}) after ${brief(previous!.kind)}`,
        );
      if (connection?.closed) {
        problems.push(`a connection kept alive was closed after ${brief(previous!.kind)}`);
        connection = undefined;
      }
      connection ??= await RawHttpConnection.open(port);
      const exchange = await connection.exchange(shot.bytes, { head: shot.head });
      const status = exchange.answer?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      problems.push(...(await judge(shot, exchange)));
      if (exchange.connection !== 'open') connection = undefined;
      previous = shot;
    }
    connection?.close();
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { statuses, problems };
}
