import { field, isRecord, type Row, type TableColumn } from './render-table.js';

/**
 * The default columns of `deliveries list` and `deliveries show` (render-table.ts; `--wide` shows
 * every field): what support looks for first, within 120 columns for the usual ids. A journal id
 * (28 characters) stays whole for the next command; what moved in the wallet and why a request
 * earned nothing or failed are written out, wrapped, never cut.
 */

const time = (value: unknown): unknown => (typeof value === 'string' ? value.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : value);

/** What a delivery moved: `12`, `12 +stamps`, `-7` (reversed), or `0 walk_in` (a processed sale that earned nothing, and why). */
function earned(row: Row): string {
  if (typeof row.nothingEarned === 'string') return `0 ${row.nothingEarned}`;
  const parts: string[] = [];
  if (typeof row.pointsEarned === 'number') parts.push(String(row.pointsEarned));
  if (typeof row.pointsReversed === 'number') parts.push(`-${row.pointsReversed}`);
  if (row.stamps) parts.push('+stamps');
  return parts.length > 0 ? parts.join(' ') : '-';
}

/**
 * The answer and why: the status and outcome, then the failure's cause (the call's host: `show`
 * has its path) or the warning, and whether a replay recovered it or it is one.
 */
function answer(row: Row): string {
  const failure = isRecord(row.failure) ? row.failure : null;
  const call = failure ? String(failure.call).replace(/^(vendor API [^/]+)\/.*$/, '$1') : '';
  const why = failure ? `: ${call}: ${String(failure.what)}` : row.warning ? `: ${String(row.warning)}` : '';
  const recovered = row.recoveredBy ? ` (recovered by ${String(row.recoveredBy)})` : '';
  const replay = row.replayOf ? ` (replay of ${String(row.replayOf)})` : '';
  return `${String(row.status)} ${row.outcome ? String(row.outcome) : ''}${why}${recovered}${replay}`;
}

const received: TableColumn = { header: 'received', value: (row) => time(row.receivedAt), fields: ['receivedAt'] };

const deliveryColumns: TableColumn[] = [
  received,
  field('id'),
  { header: 'earned', value: earned, fields: ['pointsEarned', 'pointsReversed', 'stamps', 'nothingEarned'] },
  { header: 'answer', value: answer, fields: ['status', 'outcome', 'warning', 'failure', 'recoveredBy', 'replayOf'] },
  field('transactionId', 'transaction'),
];

/** The default columns of the deliveries commands' lists, by the list's key in their answers. */
export const DELIVERIES_VIEWS: Readonly<Record<string, Readonly<Record<string, readonly TableColumn[]>>>> = {
  'deliveries list': { deliveries: deliveryColumns },
  'deliveries show': {
    replays: [
      field('id'),
      received,
      field('status'),
      field('outcome'),
      field('replayedBy'),
      { header: 'forced', value: (row) => (row.replayForced ? 'yes' : 'no'), fields: ['replayForced'] },
    ],
    matches: [
      field('id'),
      received,
      field('vendor'),
      field('storeId', 'store'),
      field('connectionId', 'connection'),
      field('status'),
      field('outcome'),
      field('authenticated'),
    ],
  },
};
