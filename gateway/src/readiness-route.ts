import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { responseJsonSchema } from './http/response-json-schema.js';
import './http/fastify-types.js';

/** A dependency probe: resolves when the dependency can serve requests. */
export type ReadinessCheck = () => Promise<void>;

/** How long each check may take before it counts as failing. */
export const READINESS_TIMEOUT_MS = 1_000;

const CheckOutcome = z.enum(['ok', 'failed', 'timed out']);
type CheckOutcome = z.infer<typeof CheckOutcome>;

/** GET /ready's 200 answer. */
export const ReadyResult = z.strictObject({ status: z.literal('ready'), checks: z.record(z.string(), CheckOutcome) });
const readyJsonSchema = responseJsonSchema(ReadyResult);

function probe(check: ReadinessCheck, timeoutMs: number): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  const run = Promise.resolve()
    .then(check)
    .then(
      (): CheckOutcome => 'ok',
      (): CheckOutcome => 'failed',
    );
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /ready: readiness, no authentication, no rate limit. Every check runs at once with its own
 * deadline; all `ok` → 200 `{ status: 'ready', checks }`, otherwise 503 `not_ready` (Error body)
 * whose message names each failing check. GET /health stays liveness only.
 */
export function registerReadiness(
  app: FastifyInstance,
  checks: Readonly<Record<string, ReadinessCheck>>,
  timeoutMs = READINESS_TIMEOUT_MS,
): void {
  app.get('/ready', { config: { rateLimit: false, probe: true }, schema: { response: { 200: readyJsonSchema } } }, async () => {
    const names = Object.keys(checks);
    const outcomes = await Promise.all(names.map((name) => probe(checks[name]!, timeoutMs)));
    const results = Object.fromEntries(names.map((name, i) => [name, outcomes[i]!]));
    const failing = names.filter((name) => results[name] !== 'ok');
    if (failing.length > 0) {
      const detail = failing.map((name) => `${name} ${results[name]}`).join(', ');
      throw new GatewayError('not_ready', { message: `The gateway is not ready: ${detail}.` });
    }
    return { status: 'ready', checks: results } satisfies z.infer<typeof ReadyResult>;
  });
}
