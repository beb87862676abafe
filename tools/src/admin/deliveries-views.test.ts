import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from './run-admin-command.js';

/** A journal entry as GET /admin/deliveries answers it (every field the gateway sends). */
const entry = (overrides: Record<string, unknown>) => ({
  id: '00mi3b6z4-0000a-3f9c2e71d0b4',
  requestId: '5b0c8a1e-9d2f-4c7b-8e6a-1f2d3c4b5a69',
  receivedAt: '2026-12-01T09:00:07.123Z',
  method: 'POST',
  route: '/webhooks/generic',
  vendor: 'acme-pos',
  storeId: 'store-001',
  connectionId: '7d4f8c2a-1b3e-4f5a-9c6d-8e7f0a1b2c3d',
  eventType: 'sale.completed',
  eventId: 'T-1001:completed',
  transactionId: 'T-1001',
  refundId: null,
  status: 200,
  outcome: 'processed',
  warning: null,
  fields: null,
  durationMs: 4,
  skewSeconds: 0,
  bodySha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
  requestKept: false,
  replayOf: null,
  replayedBy: null,
  clientAddress: '203.0.113.7',
  refusals: 1,
  lastRequestId: null,
  authenticated: true,
  replayForced: false,
  pointsEarned: 12,
  pointsReversed: null,
  stamps: 'Buy 5 coffees, get one free 2/5',
  nothingEarned: null,
  failure: null,
  recoveredBy: null,
  ...overrides,
});

const WALK_IN = 'Walk-in sale: no customer on the sale. The sale was recorded; no points or stamps were awarded.';
const failed = entry({
  id: '00mi3b6y1-00009-3f9c2e71d0b4',
  requestId: 'c0ffee00-1111-4222-8333-444455556666',
  route: '/webhooks/woocommerce',
  vendor: 'woocommerce',
  storeId: 'https://shop.example.com',
  transactionId: '727',
  status: 503,
  outcome: 'vendor_api_unavailable',
  pointsEarned: null,
  stamps: null,
  requestKept: true,
  failure: {
    call: 'vendor API shop.example.com/wp-json/wc/v3/orders/{id}',
    what: 'no HTTP answer (could not connect) after 2 attempts',
    ms: 2504,
  },
  recoveredBy: '00mi3b7k2-0000c-3f9c2e71d0b4',
});
const list = {
  deliveries: [
    entry({}),
    entry({
      id: '00mi3b6z3-0000b-3f9c2e71d0b4',
      transactionId: 'T-1002',
      pointsEarned: 0,
      stamps: null,
      nothingEarned: 'walk_in',
      warning: WALK_IN,
    }),
    failed,
  ],
  nextCursor: 'MTc2NDU3OTYwNzEyM3wwMG1pM2I2eTEtMDAwMDktM2Y5YzJlNzFkMGI0',
  searchedBackTo: null,
};
const LEDGER =
  'sale.completed of transaction 727: vendor_api_unavailable (The vendor API could not be reached to complete this event; it was not recorded. Retry later.)';
const show = {
  delivery: failed,
  story: [
    { step: 'connection', outcome: '7d4f8c2a-1b3e-4f5a-9c6d-8e7f0a1b2c3d (woocommerce/https://shop.example.com)' },
    { step: 'signature', outcome: 'verified' },
    { step: 'ledger', outcome: LEDGER },
    {
      step: 'cause',
      outcome: 'vendor API shop.example.com/wp-json/wc/v3/orders/{id}: no HTTP answer (could not connect) after 2 attempts; took 2504 ms',
    },
    { step: 'answer', outcome: 'HTTP 503 vendor_api_unavailable in 2511 ms' },
    {
      step: 'recovered',
      outcome: 'by replay 00mi3b7k2-0000c-3f9c2e71d0b4 (HTTP 200 processed, 2026-12-01T09:14:02.001Z): nothing left to replay',
    },
  ],
  replays: [
    entry({
      id: '00mi3b7k2-0000c-3f9c2e71d0b4',
      requestId: 'replay-0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      receivedAt: '2026-12-01T09:14:02.001Z',
      route: '/webhooks/woocommerce',
      replayOf: failed.id,
      replayedBy: 'admin:3e1f0c9a7b2d',
      requestKept: true,
    }),
  ],
  requestKept: true,
  replayable: false,
  matches: [],
};

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const body = request.url?.startsWith('/admin/deliveries?') || request.url === '/admin/deliveries' ? list : show;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const printed = async (...argv: string[]) => {
  let text = '';
  const code = await runAdminCommand([...argv, '--url', url], {
    env: { GATEWAY_ADMIN_TOKEN: 'adm_cli_test_token_0123456789abcdef' },
    out: (out) => (text += out),
    err: (err) => (text += err),
  });
  expect(code).toBe(0);
  return text;
};
/** The printed text as one line of words: what wrapped is found whole again. */
const words = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The cells of the table whose header line starts with `first`, each row's wrapped lines joined:
 * by column, as the dashes under the headers place them (a row starts where its first cell does).
 */
function tableCells(text: string, first: string): Array<Record<string, string>> {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.trimStart().startsWith(`${first} `));
  const dashes = lines[at + 1]!;
  const spans = [...dashes.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const headers = spans.map(([from, to]) => lines[at]!.slice(from, to).trim());
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(at + 2)) {
    if (line.slice(0, spans[0]![0]).trim() !== '' || line.trim() === '' || line.trimStart().startsWith('(')) break;
    const cells = spans.map(([from], i) => line.slice(from, spans[i + 1]?.[0] ?? line.length).trim());
    if (cells[0] !== '') rows.push({});
    cells.forEach((cell, i) => {
      const row = rows.at(-1)!;
      if (cell !== '') row[headers[i]!] = row[headers[i]!] ? `${row[headers[i]!]} ${cell}` : cell;
    });
  }
  return rows;
}

describe('deliveries list and show fit 120 columns, wrap instead of cutting, --wide for every column', () => {
  it('list: when, which (journal id), the answer, what it earned or why not, why it failed and that it was recovered, in 120 columns', async () => {
    const text = await printed('deliveries', 'list');
    const lines = text.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(lines[0]).toBe('deliveries (3):');
    expect(lines[1]).toMatch(/^ {2}received +id +earned +answer +transaction$/);
    expect(text).not.toContain('…');
    for (const id of list.deliveries.map((d) => d.id)) expect(text).toContain(id);
    expect(tableCells(text, 'received')).toEqual([
      {
        received: '2026-12-01 09:00:07Z',
        id: list.deliveries[0]!.id,
        earned: '12 +stamps',
        answer: '200 processed',
        transaction: 'T-1001',
      },
      {
        received: '2026-12-01 09:00:07Z',
        id: list.deliveries[1]!.id,
        earned: '0 walk_in',
        answer: `200 processed: ${WALK_IN}`,
        transaction: 'T-1002',
      },
      {
        received: '2026-12-01 09:00:07Z',
        id: failed.id,
        earned: '-',
        answer:
          '503 vendor_api_unavailable: vendor API shop.example.com: no HTTP answer (could not connect) after 2 attempts (recovered by 00mi3b7k2-0000c-3f9c2e71d0b4)',
        transaction: '727',
      },
    ]);
    expect(words(text)).toContain('nextCursor: MTc2NDU3OTYwNzEyM3wwMG1pM2I2eTEtMDAwMDktM2Y5YzJlNzFkMGI0');
  });

  it('list --wide: every field a column, one line per entry', async () => {
    const lines = (await printed('deliveries', 'list', '--wide')).split('\n');
    const header = lines[1]!;
    for (const field of [
      'requestId',
      'route',
      'vendor',
      'storeId',
      'connectionId',
      'pointsEarned',
      'nothingEarned',
      'failure',
      'recoveredBy',
    ])
      expect(header).toContain(field);
    expect(lines.filter((line) => line.includes('3f9c2e71d0b4') && line.includes('/webhooks/'))).toHaveLength(3);
  });

  it("show: the story's lines whole, wrapped within 120 columns; the replays and the recovery at a glance", async () => {
    const text = await printed('deliveries', 'show', failed.id);
    const lines = text.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(text).not.toContain('…');
    expect(tableCells(text, 'step')).toEqual(show.story);
    const flat = words(text);
    expect(flat).toContain('recoveredBy: 00mi3b7k2-0000c-3f9c2e71d0b4');
    expect(flat).toContain('replayable: false');
    expect(tableCells(text, 'id')).toEqual([
      {
        id: '00mi3b7k2-0000c-3f9c2e71d0b4',
        received: '2026-12-01 09:14:02Z',
        status: '200',
        outcome: 'processed',
        replayedBy: 'admin:3e1f0c9a7b2d',
        forced: 'no',
      },
    ]);
  });
});
