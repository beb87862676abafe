import { startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';

export type ScriptedAnswer = RecordedReply;

/**
 * Clover's `GET /v3/merchants/{mId}/items?offset=N` with recorded-shape pages, on core's recorded
 * vendor server: `count` items, 100 a page. `script(offset, ...answers)` queues answers (a 429 with
 * Retry-After, a 503) served before the page itself.
 */
export interface CloverItemsServer {
  baseUrl: string;
  /** Offsets asked, in order (retries included). */
  readonly asked: number[];
  readonly authorizations: string[];
  setItemCount(count: number): void;
  script(offset: number, ...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export const cloverItem = (n: number) => ({
  id: `ITEM${String(n).padStart(9, '0')}`,
  hidden: n % 10 === 9,
  name: `Item ${n}`,
  price: 100 + n,
  priceType: 'FIXED',
  ...(n % 3 === 0 ? { code: `SKU-${n}` } : {}),
});

const PAGE = 100;

export async function startCloverItemsServer(merchantId: string, count: number): Promise<CloverItemsServer> {
  const path = `/v3/merchants/${merchantId}/items`;
  const server = await startRecordedVendorServer({
    key: ({ url }) => (url.pathname === path ? `offset=${Number(url.searchParams.get('offset') ?? '0')}` : url.pathname),
  });
  const setItemCount = (total: number) => {
    for (let offset = 0; offset <= total; offset += PAGE) {
      const elements = Array.from({ length: Math.max(0, Math.min(PAGE, total - offset)) }, (_, i) => cloverItem(offset + i));
      server.route(`offset=${offset}`, { body: { elements } });
    }
  };
  setItemCount(count);
  const items = () => server.seen.filter((r) => r.path === path);
  return {
    baseUrl: server.baseUrl,
    get asked() {
      return items().map((r) => Number(r.query.get('offset') ?? '0'));
    },
    get authorizations() {
      return items().map((r) => String(r.headers.authorization));
    },
    setItemCount,
    script: (offset, ...answers) => server.script(`offset=${offset}`, ...answers),
    close: () => server.close(),
  };
}
