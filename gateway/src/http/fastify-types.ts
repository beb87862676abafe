import type { Connection } from '@loyalty-gateway/core';
import type { FailureCause } from '../journal/failure-cause.js';
import type { ReplayTicket } from '../journal/replay-tickets.js';
import type { EarnedTally } from '../webhooks/earned-tally.js';

/** What the one log line per request says about the business side of it (for support). */
export interface RequestAudit {
  eventType?: string | undefined;
  eventId?: string | undefined;
  transactionId?: string | undefined;
  refundId?: string | undefined;
  /** processed / duplicate / ignored / … or the error code. */
  outcome?: string | undefined;
  /**
   * A featured batch's events counted by outcome (`outcome` then summarises them for the log and
   * the journal): gateway_earn_outcomes_total counts these, one label per outcome, never the summary.
   */
  outcomes?: ReadonlyArray<readonly [string, number]> | undefined;
  /** The result's warning (earned nothing because…, a conflicting resend…), for the journal. */
  warning?: string | null | undefined;
  /** A validation error's fields, for the journal. */
  fields?: Array<{ path: string; message: string }> | undefined;
  /** Why the request answered 5xx (the call, what happened, how long), for the journal. */
  failure?: FailureCause | undefined;
  /** What its events moved (points, stamps) and why a processed sale earned nothing: the journal and gateway_earn_outcomes_total. */
  earned?: EarnedTally | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The connection the v1 auth headers resolved to; null on unauthenticated routes. */
    connection: Connection | null;
    /**
     * Whether the request proved its connection (the v1 signature verified, a featured door's
     * units authenticated): `connection` is set before the signature is checked, so a refused
     * request may name a connection it could not prove.
     */
    authenticated: boolean;
    audit: RequestAudit | null;
    /** Set when this request is an operator's replay of a kept delivery (an in-process ticket). */
    replay: ReplayTicket | null;
    /** `routeOptions` as first read by routeOf (Fastify's getter builds a new object at every read). */
    routeSeen: FastifyRequest['routeOptions'] | null;
  }
  interface FastifyContextConfig {
    /** A load-balancer probe (/health, /ready): its request line is logged at debug only. */
    probe?: boolean;
    /** false: a /v1 route the delivery journal does not record (the vendor's own delivery log, read). */
    journal?: boolean;
  }
}
