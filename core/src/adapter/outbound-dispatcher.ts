import { lookup as systemLookup } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction } from 'node:net';
import type * as Undici from 'undici';
import { outboundAddressProblem, type OutboundPolicy } from './outbound-url.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (the system resolver by default; tests inject their own). */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const resolveWithSystem: Resolve = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/** A connection the outbound policy refused, raised inside the connect step (so undici reports it as the cause). */
export class OutboundRefusedError extends Error {
  readonly code = 'ERR_OUTBOUND_REFUSED';
  constructor(readonly reason: string) {
    super(`refused by the outbound policy: ${reason}`);
    this.name = 'OutboundRefusedError';
  }
}

/** The refusal behind a failed call (what the connect step raised, or its cause when wrapped), if that is why it failed. */
export function outboundRefusalOf(error: unknown): OutboundRefusedError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

/**
 * net's lookup hook: resolve, judge every address (one refused address refuses the name: no
 * address of a name that resolves inward is tried), then answer in the form net asked for.
 */
function guardedLookup(policy: OutboundPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        for (const { address } of answers) {
          const problem = outboundAddressProblem(hostname, address, policy);
          if (problem) return callback(new OutboundRefusedError(`${hostname} resolves to ${problem}`), '', 0);
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = answers.filter((a) => family === 0 || a.family === family);
        if (usable.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
          return callback(error, '', 0);
        }
        if (options.all)
          return callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

type Dispatcher = Undici.Dispatcher;
type UndiciModule = typeof Undici;

let undici: UndiciModule | undefined;
/** undici, loaded on the first vendor call: a gateway without featured vendors never loads it (tools/build/bundle.mjs keeps it out of the bundle). */
export const loadUndici = (): UndiciModule => (undici ??= createRequire(import.meta.url)('undici') as UndiciModule);

const dispatchers = new WeakMap<OutboundPolicy, WeakMap<Resolve, Dispatcher>>();

/**
 * The undici dispatcher vendor calls go through under `policy` (core's HttpClient sends each with
 * its `request`, decompressing a gzip or deflate answer): every connection it opens is
 * judged by the address it connects to — a literal host as written, a name by each address the
 * resolver answers, at connect time, so a name resolving inward and DNS rebinding fail like the
 * address itself. One per policy and resolver (kept-alive connections are shared by the calls of
 * every webhook unit and pull).
 */
export function outboundDispatcher(policy: OutboundPolicy, resolve: Resolve = resolveWithSystem): Dispatcher {
  let byResolver = dispatchers.get(policy);
  if (!byResolver) dispatchers.set(policy, (byResolver = new WeakMap()));
  let dispatcher = byResolver.get(resolve);
  if (!dispatcher) {
    const { Agent, buildConnector, interceptors } = loadUndici();
    const connectResolved = buildConnector({ lookup: guardedLookup(policy, resolve) });
    const connect: Undici.buildConnector.connector = (options, callback) => {
      // net never calls lookup for an address: judge it here (outboundUrlProblem did too; this is the one that connects).
      const literal = options.hostname.replace(/^\[|\]$/g, '');
      const problem = isIP(literal) ? outboundAddressProblem(literal, literal, policy) : null;
      if (problem) return callback(new OutboundRefusedError(`${literal} is ${problem}`), null);
      connectResolved(options, callback);
    };
    // Answers compressed as asked (the client's accept-encoding) are decompressed here, as undici's fetch did.
    dispatcher = new Agent({ connect }).compose(interceptors.decompress());
    byResolver.set(resolve, dispatcher);
  }
  return dispatcher;
}
