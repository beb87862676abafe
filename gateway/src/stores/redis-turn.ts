import type { ChainableCommander, Redis } from 'ioredis';

/** A command's reply in a pipeline: its error, or null and its value. */
export type Reply = [error: Error | null, value: unknown];

/**
 * One caller's share of a turn: the commands it adds to the turn's pipeline, and what it does with
 * their replies (in order), or with the error that failed the whole pipeline.
 */
export interface TurnPart {
  /** Adds this part's commands to the pipeline; answers how many it added. */
  add(pipeline: ChainableCommander): number;
  settle(replies: Reply[] | Error): void;
}

interface Turn {
  parts: TurnPart[];
}

const turns = new WeakMap<Redis, { current: Turn | null }>();

function send(redis: Redis, turn: Turn): void {
  const pipeline = redis.pipeline();
  const counts = turn.parts.map((part) => {
    try {
      return part.add(pipeline);
    } catch (error) {
      // A part that could not build its commands fails alone (its calls are rejected), the rest are sent.
      part.settle(error instanceof Error ? error : new Error(String(error)));
      return -1;
    }
  });
  pipeline.exec().then(
    (replies) => {
      let at = 0;
      turn.parts.forEach((part, i) => {
        const count = counts[i]!;
        if (count < 0) return;
        part.settle((replies ?? []).slice(at, at + count) as Reply[]);
        at += count;
      });
    },
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      turn.parts.forEach((part, i) => {
        if (counts[i]! >= 0) part.settle(failure);
      });
    },
  );
}

/**
 * The gateway's hot Redis calls of one turn of the event loop (every request's rate-limit hit,
 * idempotency-cache read and writes arriving together), sent as ONE pipeline of FEW commands:
 * each caller's part folds the calls it holds into as few commands as it can (all the cache reads
 * into one MGET, all its writes into one script, a key's rate-limit hits into one INCRBY) before
 * the turn is sent. ioredis's auto-pipelining already sent a turn's commands in one write, but one
 * command per call, four per signed sale, each with its Command, promise, encoding and reply on the
 * event loop. Gathered, a loaded turn holds ~17-20 sales: 0.15 commands per sale instead of 4,
 * and the event loop spends 12-36 µs less per earn on PostgreSQL and Redis (docs/benchmarks.md).
 * The turn is sent on setImmediate, as auto-pipelining sends its own: no call waits longer.
 *
 * scheduleOnTurn queues `part` for this turn (sent with the turn's other parts once its I/O
 * callbacks have run); the part keeps its own calls until its `add` is called.
 */
export function scheduleOnTurn(redis: Redis, part: TurnPart): void {
  let state = turns.get(redis);
  if (!state) {
    state = { current: null };
    turns.set(redis, state);
  }
  if (state.current) {
    state.current.parts.push(part);
    return;
  }
  const turn: Turn = { parts: [part] };
  state.current = turn;
  const owner = state;
  setImmediate(() => {
    owner.current = null;
    send(redis, turn);
  });
}

/** How a caller folds its calls of one turn into commands, and hands their replies back. */
export interface TurnBatch<Call, Sent> {
  /** Adds the commands for `calls` to the turn's pipeline: what `settle` needs, and how many commands were added. */
  send(pipeline: ChainableCommander, calls: Call[]): { sent: Sent; commands: number };
  settle(sent: Sent, replies: Reply[] | Error): void;
}

/**
 * A caller's calls of one turn, gathered and sent as one part of the turn's pipeline (see
 * scheduleOnTurn). Answers the function that queues one call.
 */
export function turnBatcher<Call extends { reject(error: Error): void }, Sent>(
  redis: Redis,
  batch: TurnBatch<Call, Sent>,
): (call: Call) => void {
  let gathering: Call[] | null = null;
  return (call) => {
    if (gathering) {
      gathering.push(call);
      return;
    }
    const calls: Call[] = [call];
    gathering = calls;
    let sent: { value: Sent } | undefined;
    scheduleOnTurn(redis, {
      add: (pipeline) => {
        gathering = null;
        const added = batch.send(pipeline, calls);
        sent = { value: added.sent };
        return added.commands;
      },
      settle: (replies) => {
        // `send` threw before anything was sent: its calls fail with its error.
        if (sent === undefined) for (const one of calls) one.reject(replies instanceof Error ? replies : new Error('not sent'));
        else batch.settle(sent.value, replies);
      },
    });
  };
}

/** The reply of command `i`, or the error that failed them all. */
export function replyAt(replies: Reply[] | Error, i: number): Reply {
  if (replies instanceof Error) return [replies, null];
  return replies[i] ?? [new Error('Redis gave no reply for a command of the pipeline'), null];
}
