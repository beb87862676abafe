import { field, isRecord, type Row, type TableColumn } from './render-table.js';

/**
 * The default columns of each admin list: what an operator looks for first, within 120 columns
 * for the usual ids and names; `--wide` shows every field. Ids the next command asks for stay
 * whole (a table never breaks a word of up to 40 characters). The deliveries commands have their
 * own views, beside their commands.
 */

const time = (value: unknown): unknown => (typeof value === 'string' ? value.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : value);
const record = (value: unknown): Row => (isRecord(value) ? value : {});
const yesNo = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : value);

// What the next command needs (the id, the store) and whether it works (active) are never left out.
const connectionColumns: TableColumn[] = [
  field('id', 'id', { keep: true }),
  field('vendor'),
  field('storeId', 'store', { keep: true }),
  { header: 'active', value: (row) => yesNo(row.active), fields: ['active'], keep: true },
  {
    header: 'merchant / outlet',
    value: (row) => `${String(row.merchantId)} / ${String(row.outletId)}`,
    fields: ['merchantId', 'outletId'],
  },
  {
    header: 'last answer',
    value: (row) => {
      const activity = record(row.activity);
      return activity.lastSeenAt ? `${String(activity.lastStatus)} ${String(time(activity.lastSeenAt)).slice(0, 16)}Z` : 'not since start';
    },
    fields: ['activity'],
  },
  {
    header: 'last hour',
    value: (row) => {
      const hour = record(record(row.activity).lastHour);
      return typeof hour.requests === 'number' && hour.requests > 0
        ? `${hour.requests} req, ${String(hour.refused)} refused, ${String(hour.failed)} failed`
        : '-';
    },
    fields: ['activity'],
  },
  {
    header: 'skew',
    value: (row) => {
      const skew = record(row.clockSkew);
      return typeof skew.latestSeconds === 'number' ? `${skew.latestSeconds} s${skew.flagged ? ' FLAGGED' : ''}` : '-';
    },
    fields: ['clockSkew'],
  },
];

// A run is found by its connection (the commands take that id), and why it failed is never left out.
const runColumns = (counts: readonly string[]): TableColumn[] => [
  field('connectionId', 'connection', { keep: true }),
  field('status', 'status', { keep: true }),
  { header: 'started', value: (row) => time(row.startedAt), fields: ['startedAt'] },
  ...counts.map((count) => field(count)),
  field('error', 'error', { keep: true }),
];

/** The default columns of a command's lists, by the list's key in its answer. */
export const LIST_VIEWS: Readonly<Record<string, Readonly<Record<string, readonly TableColumn[]>>>> = {
  'vendors list': {
    vendors: [
      field('slug', 'slug', { keep: true }),
      field('name'),
      field('tier'),
      { header: 'adapter', value: (row) => yesNo(row.featuredAdapter), fields: ['featuredAdapter'] },
      { header: 'settings', value: (row) => yesNo(row.hasSettings), fields: ['hasSettings'] },
      {
        header: 'catalog schedule',
        value: (row) => (row.catalogSchedule ? `${String(row.catalogSchedule)} (${String(row.catalogScheduleSource)})` : '-'),
        fields: ['catalogSchedule', 'catalogScheduleSource'],
      },
      { header: 'exists', value: (row) => yesNo(row.exists ?? true), fields: ['exists'] },
    ],
  },
  'merchants list': {
    merchants: [
      field('id', 'id', { keep: true }),
      field('name'),
      field('currency'),
      {
        header: 'outlets',
        value: (row) =>
          Array.isArray(row.outlets) && row.outlets.length > 0
            ? row.outlets.map((outlet) => `${String(record(outlet).id)} (${String(record(outlet).name)})`).join(', ')
            : '(none)',
        fields: ['outlets'],
        keep: true,
      },
    ],
  },
  'connections list': { connections: connectionColumns },
  'vendors notes': {
    notes: [
      field('kind', 'kind', { keep: true }),
      field('value', 'value', { keep: true }),
      field('count'),
      { header: 'last', value: (row) => time(row.createdAt), fields: ['createdAt'] },
      field('note', 'note', { keep: true }),
    ],
  },
  'catalog runs': { runs: runColumns(['pages', 'items', 'created', 'updated', 'deactivated']) },
  'reconcile runs': { runs: runColumns(['found', 'recovered', 'duplicates', 'failed']) },
};
