/**
 * The HTTP client adapters use for fetch-back and catalog pulls: global fetch (undici) with a
 * timeout per attempt and bounded retries on 429 and 5xx that honour Retry-After.
 */
export class VendorApiError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'VendorApiError';
  }

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
}

export interface HttpClient {
  /** JSON request; throws VendorApiError on a non-2xx answer once retries are spent. */
  json<T = unknown>(url: string, options?: HttpRequestOptions): Promise<T>;
}

export interface HttpClientOptions {
  timeoutMs?: number;
  maxAttempts?: number;
  /** Upper bound on any single wait between attempts (Retry-After included). */
  maxDelayMs?: number;
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
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

async function attempt(url: string, options: HttpRequestOptions, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: { accept: 'application/json', ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new VendorApiError(0, url, `request failed: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new VendorApiError(response.status, url, `HTTP ${response.status} from ${new URL(url).host}`, parseRetryAfter(response.headers.get('retry-after')));
  }
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    throw new VendorApiError(response.status, url, `invalid JSON from ${new URL(url).host}`);
  }
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = options.maxAttempts ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    async json<T>(url: string, request: HttpRequestOptions = {}): Promise<T> {
      const target = withQuery(url, request.query);
      for (let n = 1; ; n += 1) {
        try {
          return (await attempt(target, request, timeoutMs)) as T;
        } catch (error) {
          const retry = error instanceof VendorApiError && error.retryable && n < maxAttempts;
          if (!retry) throw error;
          const backoff = baseDelayMs * 2 ** (n - 1);
          await sleep(Math.min(maxDelayMs, error.retryAfterMs ?? backoff));
        }
      }
    },
  };
}
