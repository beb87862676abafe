import type { FastifyRequest } from 'fastify';
import { InvalidCommandError } from './reply-error.js';

/**
 * The remaining time budget of a call, in whole milliseconds, sent by the gateway's HTTP engine
 * client with every call. Relative, so the two machines' clocks need not agree: the engine
 * service counts it from the moment the request arrived.
 */
export const ENGINE_BUDGET_HEADER = 'x-engine-budget-ms';

/** A budget beyond an hour is not a deadline anyone waits for: refused as malformed. */
export const MAX_BUDGET_MS = 3_600_000;

const arrivals = new WeakMap<FastifyRequest, number>();

/** onRequest: note when the request arrived (the budget runs from there). */
export function noteArrival(request: FastifyRequest): void {
  arrivals.set(request, Date.now());
}

/** When the request arrived (epoch ms): what every budget it carries counts from. */
export const arrivalOf = (request: FastifyRequest): number => arrivals.get(request) ?? Date.now();

/**
 * The epoch-ms deadline a request carries (arrival + budget), or undefined without the header
 * (then the call has no deadline). A malformed header is an InvalidCommandError (400).
 */
export function deadlineOf(request: FastifyRequest): number | undefined {
  const header = request.headers[ENGINE_BUDGET_HEADER];
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_BUDGET_MS) {
    throw new InvalidCommandError([
      { path: `header ${ENGINE_BUDGET_HEADER}`, message: `must be whole milliseconds from 0 to ${MAX_BUDGET_MS}` },
    ]);
  }
  return arrivalOf(request) + Number(value);
}
