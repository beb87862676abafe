import { signedHeaders } from '@loyalty-gateway/core';
import { field, renderTable, type Row, type TableColumn, type TableLayout } from './admin/render-table.js';
import { fetchOrExplain, readAnswer, type SendSignedResult } from './send-signed.js';

export interface DeliveryLogOptions {
  url: string;
  vendor: string;
  store: string;
  secret: string;
  /** GET /v1/deliveries's filters, as its query names them (unset ones are left out). */
  query?: Partial<Record<'since' | 'until' | 'status' | 'transactionId' | 'limit' | 'cursor', string | undefined>>;
}

/**
 * `GET /v1/deliveries`, signed as the vendor signs it: the v1 signature over the timestamp, a dot
 * and the empty body (a GET has none; the query is not signed). Answers the store's own journal
 * entries, newest first.
 */
export async function fetchDeliveryLog(options: DeliveryLogOptions): Promise<SendSignedResult> {
  const query = new URLSearchParams(
    Object.entries(options.query ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
  ).toString();
  const response = await fetchOrExplain(`${options.url.replace(/\/$/, '')}/v1/deliveries${query ? `?${query}` : ''}`, {
    headers: signedHeaders({ vendor: options.vendor, store: options.store, secret: options.secret, body: '' }),
  });
  return readAnswer(response);
}

const time = (value: unknown): unknown => (typeof value === 'string' ? value.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : value);

/** The answer and why: the status, the outcome or code, then the warning or each field the validation named. */
function answer(row: Row): string {
  const fields = Array.isArray(row.fields) ? (row.fields as Array<{ path: string; message: string }>) : [];
  const why = row.warning
    ? `: ${String(row.warning)}`
    : fields.length > 0
      ? `: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`
      : '';
  return `${String(row.status)} ${String(row.outcome ?? row.code ?? '')}${why}${row.replay ? ' (an operator replay)' : ''}`;
}

function points(row: Row): string {
  const parts: string[] = [];
  if (typeof row.pointsEarned === 'number') parts.push(String(row.pointsEarned));
  if (typeof row.pointsReversed === 'number') parts.push(`-${row.pointsReversed}`);
  return parts.length > 0 ? parts.join(' ') : '-';
}

/** The default columns: when, the request id to quote to support, what it was, what it earned, and the answer with its reason. */
const COLUMNS: readonly TableColumn[] = [
  { header: 'received', value: (row) => time(row.receivedAt), fields: ['receivedAt'] },
  field('requestId', 'request id', { keep: true }),
  { header: 'event', value: (row) => row.eventType ?? row.route, fields: ['eventType', 'route'] },
  field('transactionId', 'transaction'),
  { header: 'points', value: points, fields: ['pointsEarned', 'pointsReversed'] },
  { header: 'answer', value: answer, fields: ['status', 'outcome', 'code', 'warning', 'fields', 'replay'], keep: true },
];

/** The log as a table that fits the terminal, then the command that shows the next page. */
export function formatDeliveryLog(page: { deliveries: Row[]; nextCursor: string | null }, layout: TableLayout): string {
  const lines = renderTable(page.deliveries, layout, COLUMNS);
  if (page.nextCursor) lines.push('', `Older deliveries: the same command with --cursor ${page.nextCursor}`);
  return lines.join('\n');
}
