import type * as Undici from 'undici';
import { VENDOR_CALL, type VendorCallBudget } from '../resilience/policies.js';
import { runVendorCall } from '../resilience/vendor-call.js';
import { outboundDispatcher, outboundRefusalOf, type Resolve } from './outbound-dispatcher.js';
import { DEVELOPMENT_OUTBOUND_POLICY, outboundUrlProblem, type OutboundPolicy } from './outbound-url.js';

export type { ResolvedAddress, Resolve } from './outbound-dispatcher.js';

/**
 * The HTTP client adapters use for fetch-back and catalog pulls: undici's request, through the
 * outbound dispatcher (outbound-dispatcher.ts: the outbound rule in its connector), under the
 * vendor-call policy (`core/src/resilience`): a timeout per attempt and bounded retries on 429 and
 * 5xx that honour Retry-After. Two budgets use it: a pull's is patient (VENDOR_CALL: long
 * timeouts, several attempts); a webhook's fetch-back has a deadline (WEBHOOK_FETCH_BACK: the
 * vendor waits for our answer), past which nothing is started or waited for.
 */
export class VendorApiError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'VendorApiError';
  }

  /** Attempts the HttpClient made before throwing this (set when it gives up). */
  attempts?: number;

  /** 429 and 5xx (and network failures, status 0) are worth retrying later. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * A 2xx answer that still reports a failure (GraphQL `errors` inside a 200, such as Shopify's
   * THROTTLED): return the VendorApiError it means, or null when the answer is good. What it
   * returns is thrown, and retried within this call's budget when retryable, its `retryAfterMs`
   * honoured like a Retry-After. Never loop or sleep in an adapter: this is the one retry.
   */
  failureIn?: (body: unknown) => VendorApiError | null;
}

/** A successful (2xx) answer: its status, its headers (e.g. `X-WP-TotalPages`, `Link`) and its parsed JSON body. */
export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface HttpClient {
  /** JSON request; throws VendorApiError on a non-2xx answer once retries are spent. */
  json<T = unknown>(url: string, options?: HttpRequestOptions): Promise<T>;
  /** Like `json`, with the answer's status and headers (paging headers, rate-limit headers). */
  request<T = unknown>(url: string, options?: HttpRequestOptions): Promise<HttpResponse<T>>;
}

export interface HttpClientOptions {
  /** Longest one attempt may take (connect to last byte). Default: VENDOR_CALL's. */
  timeoutMs?: number;
  /** Attempts in all. Default: VENDOR_CALL's. */
  maxAttempts?: number;
  /**
   * Longest wait between attempts (default: VENDOR_CALL's). A Retry-After longer than this is not
   * shortened: the client gives up at once and the error carries `retryAfterMs`, so the caller can
   * come back when the vendor asked (retrying early only earns another 429).
   */
  maxDelayMs?: number;
  /** First backoff step when the vendor sends no Retry-After, doubled each attempt. Default: VENDOR_CALL's. */
  baseDelayMs?: number;
  /**
   * Epoch milliseconds after which nothing is started or waited for: each attempt's timeout is
   * cut to what remains, and a wait (Retry-After or backoff) that would end past it is not made.
   */
  deadline?: number;
  now?: () => number;
  /**
   * Test seam: how long a wait the client decided (a Retry-After, a backoff step) really lasts;
   * default: as decided. Tests record the decided wait and answer 0 (or a few ms).
   */
  realWaitMs?: (decidedMs: number) => number;
  /**
   * Where calls may go (outbound-url.ts): every URL is checked before it is called, and every
   * address connected to when it connects (outbound-dispatcher.ts). Default:
   * DEVELOPMENT_OUTBOUND_POLICY (loopback allowed); the gateway passes production's in production.
   */
  outbound?: OutboundPolicy;
  /** How host names are resolved (default: the system's, as Node's own connect does); tests inject a local one. */
  resolve?: Resolve;
}

/** Retry-After as seconds or an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function withQuery(url: string, query: HttpRequestOptions['query']): string {
  if (!query) return url;
  const u = new URL(url);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) u.searchParams.set(key, String(value));
  return u.toString();
}

/**
 * Why a request got no answer, in the system's words: undici's cause (`connect ECONNREFUSED …`,
 * `getaddrinfo ENOTFOUND …`, `bad port`), where its own error says only "fetch failed"; else the
 * error's message (a timeout's).
 */
export function fetchFailureReason(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The answer's headers as the Headers the HttpResponse carries (`headers.get('link')`), every value of a repeated one kept. */
function headersOf(raw: Undici.Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/** What one attempt received: the status, the headers and the body's text. */
interface Received {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Sends one request through `dispatcher` (undici's Dispatcher API, as the engine client calls the
 * engine service): whatever it answers is read to the end within `timeoutMs`. Redirects are never
 * followed (undici's request follows none): a redirect would carry custom credential headers
 * (X-Shopify-Access-Token) to another host, and could bounce a fetch-back to an internal address.
 */
async function send(url: string, options: HttpRequestOptions, timeoutMs: number, dispatcher: Undici.Dispatcher): Promise<Received> {
  const target = new URL(url);
  const answer = await dispatcher.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: (options.method ?? 'GET') as Undici.Dispatcher.HttpMethod,
    headers: {
      accept: 'application/json',
      // What undici's fetch sends: its user agent, and compressed answers welcome (brotli over TLS only); the dispatcher decompresses them.
      'user-agent': 'undici',
      'accept-encoding': target.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: answer.statusCode, headers: headersOf(answer.headers), text: await answer.body.text() };
}

async function attempt(url: string, options: HttpRequestOptions, timeoutMs: number, dispatcher: Undici.Dispatcher): Promise<HttpResponse> {
  const host = new URL(url).host;
  let response: Received;
  try {
    response = await send(url, options, timeoutMs, dispatcher);
  } catch (error) {
    const refusal = outboundRefusalOf(error);
    // Not retryable (a 4xx-like status): where the name points is the configuration's problem, not the vendor's weather.
    if (refusal) throw new VendorApiError(400, url, `vendor API call to ${host} ${refusal.message}`, undefined, { cause: error });
    // One message whether the port refused, reset, stayed silent or spoke something else: what a
    // run reports must not map ports (the system's reason stays in the cause, for the logs).
    throw new VendorApiError(0, url, `could not connect to ${host}`, undefined, { cause: error });
  }
  const { text } = response;
  if (response.status >= 300 && response.status < 400) {
    throw new VendorApiError(
      response.status,
      url,
      `HTTP ${response.status} from ${new URL(url).host}: redirect to ${redirectTarget(url, response.headers.get('location'))} not followed (vendor API calls never follow redirects; check the API base URL)`,
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw new VendorApiError(
      response.status,
      url,
      `HTTP ${response.status} from ${new URL(url).host}`,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    throw new VendorApiError(response.status, url, `invalid JSON from ${new URL(url).host}`);
  }
  const failure = options.failureIn?.(body);
  if (failure) throw failure;
  return { status: response.status, headers: response.headers, body };
}

/** The host a redirect points to, for the error message (never its path or query: they may carry tokens). */
function redirectTarget(from: string, location: string | null): string {
  if (!location) return 'nowhere';
  try {
    return new URL(location, from).host;
  } catch {
    return 'an invalid URL';
  }
}

const deadlinePassed = (url: string) => new VendorApiError(0, url, "no time left to ask the vendor API within this request's deadline");

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const budget: VendorCallBudget = {
    timeoutMs: options.timeoutMs ?? VENDOR_CALL.timeoutMs,
    maxAttempts: options.maxAttempts ?? VENDOR_CALL.maxAttempts,
    baseDelayMs: options.baseDelayMs ?? VENDOR_CALL.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? VENDOR_CALL.maxDelayMs,
  };
  const clock = {
    deadline: options.deadline,
    now: options.now ?? Date.now,
    realWaitMs: options.realWaitMs,
  };
  const outbound = options.outbound ?? DEVELOPMENT_OUTBOUND_POLICY;
  const resolve = options.resolve;
  const judge = (error: unknown) => (error instanceof VendorApiError ? error : null);
  const countAttempts = (error: unknown, attempts: number) => {
    if (error instanceof VendorApiError) error.attempts = attempts;
  };

  async function request<T>(url: string, options: HttpRequestOptions = {}): Promise<HttpResponse<T>> {
    const target = withQuery(url, options.query);
    const problem = outboundUrlProblem(target, outbound);
    // Not retryable (a 4xx-like status): the configured URL is wrong, not the vendor's weather.
    if (problem) throw new VendorApiError(400, target, `vendor API URL refused by the outbound policy: it ${problem}`);
    const dispatcher = outboundDispatcher(outbound, resolve);
    return runVendorCall(
      budget,
      clock,
      {
        attempt: async (timeoutMs) => (await attempt(target, options, timeoutMs, dispatcher)) as HttpResponse<T>,
        judge,
        noTimeLeft: () => deadlinePassed(target),
      },
      countAttempts,
    );
  }

  return {
    request,
    async json<T>(url: string, options: HttpRequestOptions = {}): Promise<T> {
      return (await request<T>(url, options)).body;
    },
  };
}
