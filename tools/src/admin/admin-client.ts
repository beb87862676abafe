import { fetchFailureReason, trimTrailingSlashes } from '@loyalty-gateway/core';

/** A failed admin call: the gateway's Error body when it sent one. */
export class AdminCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'AdminCallError';
  }
}

export interface AdminClient {
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<unknown>;
}

/**
 * The /admin API over HTTP with the bearer token. Answers the parsed JSON body; a non-2xx answer
 * throws AdminCallError carrying the Error body's message and code.
 */
export function createAdminClient(options: { url: string; token: string; timeoutMs?: number }): AdminClient {
  const base = trimTrailingSlashes(options.url);
  return {
    async call(method, path, body) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        throw new AdminCallError(`cannot reach the gateway at ${base}: ${fetchFailureReason(error)}`, 0, null);
      }
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        parsed = text;
      }
      if (!response.ok) {
        const error = parsed as { message?: string; code?: string } | null;
        const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
        throw new AdminCallError(
          `${message}${error?.code ? ` (${error.code}, HTTP ${response.status})` : ` (HTTP ${response.status})`}`,
          response.status,
          parsed,
        );
      }
      return parsed;
    },
  };
}
