/**
 * Grows a gateway's data to a size, for measuring what a sale costs on a large ledger
 * (bench/scale.ts, docs/benchmarks.md "Cost at ledger size"):
 *
 *   npx tsx bench/scale-seed.ts DIR MEMBERS SALES JOURNAL              (SQLite: DIR/data/*.sqlite)
 *   SCALE_POSTGRES_URL=postgres://…/bench_scale npx tsx bench/scale-seed.ts DIR MEMBERS SALES JOURNAL
 *
 * MEMBERS members (each with a wallet and a stamp card), SALES sales with their ledger entries, and
 * JOURNAL delivery-journal entries; a directory (or database) already grown is grown further, to
 * those totals. The first run boots the gateway once on the benchmarks' seed (bench/seed.ts): the
 * real migrations make both schemas, and a few real sales give the rows the engine and the journal
 * write, which the generated rows copy column for column (only keys, members, times and ids vary).
 * Rows are made inside the database (INSERT … SELECT over a counter, one transaction per chunk),
 * keyed as the engine keys them: UUIDv7 ids in time order (history in the past, so new sales sort
 * after it), members' identifiers MBR-S-<n>, +1 (2000000000 + n), s<n>@example.com, crm-s-<n>; historic
 * transaction ids are ordered (H-<n>), a sale's member is sale number mod MEMBERS. Wallets and
 * stamp cards are kept equal to what their sales earned. Journal entries are of the last 13 days
 * (within the default retention) and spread over connections of 90,000 entries each (within the
 * per-connection cap), so the gateway's pruning keeps them.
 *
 * PostgreSQL: SCALE_POSTGRES_URL names a database of its own (created if missing; its schema
 * `scale` is what the gateway is pointed at, see bench/scale.ts); nothing else is touched.
 */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { postgresUrlWithSchema } from '@loyalty-gateway/storage/testing';
import { gatewayEnv, startServer } from './server-process.js';
import { seed } from './seed.js';
import { signedSale } from './signed-load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCALE_SCHEMA = 'scale';
/** History starts this long before now: generated ids and times sort before any live sale's. */
const HISTORY_MS = 400 * 24 * 3600 * 1000;
const CHUNK = 500_000;

export interface Sizes {
  members: number;
  sales: number;
  journal: number;
}

/** One statement runner over either dialect. */
interface Runner {
  dialect: 'sqlite' | 'postgres';
  all(sql: string): Promise<Array<Record<string, unknown>>>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteRunner(file: string): Runner {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -524288');
  db.pragma('temp_store = MEMORY');
  return {
    dialect: 'sqlite',
    all: async (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>,
    exec: async (sql) => void db.exec(sql),
    close: async () => {
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },
  };
}

async function postgresRunner(url: string): Promise<Runner> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${SCALE_SCHEMA}` });
  await client.connect();
  await client.query('set synchronous_commit = off');
  await client.query("set work_mem = '64MB'");
  return {
    dialect: 'postgres',
    all: async (sql) => (await client.query(sql)).rows as Array<Record<string, unknown>>,
    exec: async (sql) => void (await client.query(sql)),
    close: () => client.end(),
  };
}

/** The database SCALE_POSTGRES_URL names, created if missing, with the schema the gateway uses. */
export async function ensurePostgres(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === 'test' || name === 'postgres') throw new Error(`use a database of its own, not ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`create schema if not exists ${SCALE_SCHEMA}`);
  await db.end();
}

/** The gateway's environment on this data: SQLite in DIR/data, or the PostgreSQL schema. */
export function scaleEnv(dir: string, postgresUrl?: string): Record<string, string> {
  const env = gatewayEnv(path.join(dir, 'data'), path.join(dir, 'seed.json'));
  if (!postgresUrl) return env;
  return { ...env, DATABASE_URL: postgresUrlWithSchema(postgresUrl, SCALE_SCHEMA), GATEWAY_SCHEDULER: 'off' };
}

/** First run: the real migrations and seed, and a few real sales (the rows to copy). */
async function bootOnce(dir: string, postgresUrl?: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
  const server = await startServer(root, path.join(dir, 'boot.log'), ['gateway/src/main.ts'], scaleEnv(dir, postgresUrl));
  try {
    for (let i = 0; i < 3; i += 1) {
      const { body, headers } = signedSale('MBR-BENCH');
      const response = await fetch(`http://127.0.0.1:${server.port}/webhooks/generic`, { method: 'POST', body, headers });
      if (response.status !== 200) throw new Error(`template sale answered ${response.status}: ${await response.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the journal's flush
  } finally {
    await server.stop();
  }
}

/** Dialect pieces: a counter's rows, hex, base 36 of a millisecond time (9 digits). */
function sqlOf(dialect: 'sqlite' | 'postgres') {
  const pgHex = (expr: string, width: number) => `lpad(to_hex((${expr})::bigint), ${width}, '0')`;
  return {
    /** rows i = from … to-1 */
    counter: (from: number, to: number) =>
      dialect === 'sqlite'
        ? `(with recursive c(i) as (select ${from} union all select i + 1 from c where i + 1 < ${to}) select i from c)`
        : `(select generate_series(${from}::bigint, ${to - 1}::bigint) as i)`,
    /** A UUIDv7 for time `ms` and counter `i` (random tail), as engine's newId writes. */
    uuid7: (ms: string, i: string) =>
      dialect === 'sqlite'
        ? `printf('%08x-%04x-7%03x-%x%03x-%012x', (${ms}) / 65536, (${ms}) % 65536, (${i}) % 4096, 8 + ((${i}) / 4096) % 4, abs(random()) % 4096, abs(random()) % 281474976710656)`
        : `${pgHex(`(${ms}) / 65536`, 8)} || '-' || ${pgHex(`(${ms}) % 65536`, 4)} || '-7' || ${pgHex(`(${i}) % 4096`, 3)} || '-' || to_hex(8 + ((${i}) / 4096) % 4) || ${pgHex('floor(random() * 4096)', 3)} || '-' || ${pgHex('floor(random() * 281474976710656)', 12)}`,
    /** ISO 8601 of epoch ms */
    iso: (ms: string) =>
      dialect === 'sqlite'
        ? `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`
        : `to_char(to_timestamp((${ms}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    pad: (expr: string, width: number) =>
      dialect === 'sqlite' ? `printf('%0${width}d', ${expr})` : `lpad((${expr})::text, ${width}, '0')`,
    int: (expr: string) => (dialect === 'sqlite' ? `cast(${expr} as integer)` : `(${expr})::bigint`),
    div: (a: string, b: string) => (dialect === 'sqlite' ? `((${a}) / (${b}))` : `div((${a})::bigint, (${b})::bigint)`),
    /** The journal's id time prefix (idFloor): ms in base 36, 9 digits. */
    base36: (ms: string) => {
      const digit = (k: number) =>
        `substr('0123456789abcdefghijklmnopqrstuvwxyz', ${dialect === 'sqlite' ? `((${ms}) / ${36 ** k}) % 36` : `(div((${ms})::bigint, ${36 ** k}::bigint) % 36)::int`} + 1, 1)`;
      return Array.from({ length: 9 }, (_, j) => digit(8 - j)).join(' || ');
    },
  };
}

async function count(db: Runner, table: string, where = ''): Promise<number> {
  const rows = await db.all(`select count(*) as n from ${table} ${where}`);
  return Number(rows[0]!.n);
}

async function columns(db: Runner, table: string): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all(`select name from pragma_table_info('${table}')`)
      : await db.all(
          `select column_name as name from information_schema.columns where table_schema = '${SCALE_SCHEMA}' and table_name = '${table}' order by ordinal_position`,
        );
  return rows.map((row) => String(row.name));
}

/** INSERT … SELECT of the template row with `overrides` (column → SQL over the counter `i`). */
async function copyRows(db: Runner, table: string, template: string, overrides: Record<string, string>, from: number, to: number) {
  const s = sqlOf(db.dialect);
  const cols = await columns(db, table);
  const values = cols.map((c) => overrides[c] ?? `t.${c}`);
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    await db.exec('begin');
    await db.exec(
      `insert into ${table} (${cols.join(', ')}) select ${values.join(', ')} from ${s.counter(start, end)} n cross join ${template} t`,
    );
    await db.exec('commit');
  }
}

export async function grow(dir: string, want: Sizes, postgresUrl?: string): Promise<void> {
  if (postgresUrl) await ensurePostgres(postgresUrl);
  const engineFile = path.join(dir, 'data', 'engine.sqlite');
  let fresh = !existsSync(engineFile);
  if (postgresUrl) {
    const probe = await postgresRunner(postgresUrl);
    const found = await probe.all(
      `select count(*) as n from information_schema.tables where table_schema = '${SCALE_SCHEMA}' and table_name = 'sales'`,
    );
    await probe.close();
    fresh = Number(found[0]!.n) === 0;
  }
  if (fresh) await bootOnce(dir, postgresUrl);
  const engine = postgresUrl ? await postgresRunner(postgresUrl) : sqliteRunner(engineFile);
  const journal = postgresUrl ? engine : sqliteRunner(path.join(dir, 'data', 'gateway.sqlite'));
  const s = sqlOf(engine.dialect);
  const base = Date.now() - HISTORY_MS;
  const started = Date.now();
  try {
    // Templates: the real rows of the boot's sales.
    for (const [name, query, db] of [
      ['t_sale', `select * from sales where transaction_id not like 'H-%' order by created_at limit 1`, engine],
      [
        't_ledger',
        `select * from ledger_entries where kind = 'earn' and ref_id in (select id from sales where transaction_id not like 'H-%') limit 1`,
        engine,
      ],
      ['t_card', `select * from balances where reward_id <> '' limit 1`, engine],
      ['t_member', `select * from members where membership_id = 'MBR-BENCH'`, engine],
      [
        't_wallet',
        `select * from balances where reward_id = '' and member_id in (select id from members where membership_id = 'MBR-BENCH')`,
        engine,
      ],
      [
        't_delivery',
        `select * from gw_deliveries where transaction_id not like 'H-%' and connection_id is not null order by id limit 1`,
        journal,
      ],
    ] as const) {
      await db.exec(`drop table if exists ${name}`);
      await db.exec(`create temp table ${name} as ${query}`);
      if ((await count(db, name)) !== 1) throw new Error(`no template row for ${name}`);
    }
    const points = Number((await engine.all('select points from t_ledger'))[0]!.points);
    const stamps = Number((await engine.all('select stamps_total from t_card'))[0]!.stamps_total);
    const required = Number((await engine.all(`select stamps_required as r from rewards where id = (select reward_id from t_card)`))[0]!.r);

    // Members (generated ones: membership id MBR-S-<n>), a wallet and a stamp card each (their two balances rows).
    const haveMembers = await count(engine, 'members', `where membership_id like 'MBR-S-%'`);
    if (haveMembers > 0 && want.members !== haveMembers && (await count(engine, 'sales', `where transaction_id like 'H-%'`)) > 0)
      throw new Error(`members are fixed once sales are generated (have ${haveMembers})`);
    const memberMs = (i: string) => `${base} + ${i}`;
    const memberId = (i: string) => s.uuid7(memberMs(i), i);
    await copyRows(
      engine,
      'members',
      't_member',
      {
        id: memberId('n.i'),
        membership_id: `'MBR-S-' || n.i`,
        phone: `'+1' || ${s.int('2000000000 + n.i')}`,
        email: `'s' || n.i || '@example.com'`,
        external_id: `'crm-s-' || n.i`,
        created_at: s.iso(memberMs('n.i')),
      },
      haveMembers,
      want.members,
    );
    // The generated members by number: a table of their ids (temporary, for joining sales to them).
    await engine.exec('drop table if exists t_members');
    await engine.exec(
      `create temp table t_members as select ${s.int(`substr(membership_id, 7)`)} as n, id from members where membership_id like 'MBR-S-%'`,
    );
    await engine.exec('create unique index t_members_n on t_members (n)');
    if (want.members > haveMembers) {
      const cols = await columns(engine, 'balances');
      const value: Record<string, string> = {
        member_id: 'm.id',
        balance: '0',
        lifetime_points: '0',
        stamps_total: '0',
        cards_completed: '0',
        cards_redeemed: '0',
      };
      // In key order: each member's wallet, then its card.
      await engine.exec('begin');
      await engine.exec(
        `insert into balances (${cols.join(', ')}) select ${cols.map((c) => value[c] ?? `t.${c}`).join(', ')} ` +
          `from t_members m cross join (select * from t_wallet union all select * from t_card) t where m.n >= ${haveMembers} order by m.n, t.reward_id`,
      );
      await engine.exec('commit');
    }
    const members = want.members;

    // Sales and their ledger entries; wallets and cards credited with what they earned.
    const haveSales = await count(engine, 'sales', `where transaction_id like 'H-%'`);
    const saleMs = (i: string) => `${base} + ${members} + ${i}`;
    for (let start = haveSales; start < want.sales; start += CHUNK) {
      const end = Math.min(want.sales, start + CHUNK);
      const saleCols = await columns(engine, 'sales');
      const ledgerCols = await columns(engine, 'ledger_entries');
      const sale: Record<string, string> = {
        id: 'n.id',
        transaction_id: `'H-' || ${s.pad('n.i', 10)}`,
        event_id: `'H-' || ${s.pad('n.i', 10)} || ':completed'`,
        member_id: 'm.id',
        occurred_at: s.iso(saleMs('n.i')),
        created_at: s.iso(saleMs('n.i')),
      };
      const ledger: Record<string, string> = {
        id: s.uuid7(saleMs('n.i'), 'n.i'),
        member_id: 'm.id',
        ref_id: 'n.id',
        created_at: s.iso(saleMs('n.i')),
      };
      await engine.exec('begin');
      await engine.exec('drop table if exists t_chunk');
      await engine.exec(`create temp table t_chunk as select i, ${s.uuid7(saleMs('i'), 'i')} as id from ${s.counter(start, end)} c`);
      const join = `from t_chunk n join t_members m on m.n = n.i % ${members} cross join`;
      await engine.exec(
        `insert into sales (${saleCols.join(', ')}) select ${saleCols.map((c) => sale[c] ?? `t.${c}`).join(', ')} ${join} t_sale t order by n.i`,
      );
      await engine.exec(
        `insert into ledger_entries (${ledgerCols.join(', ')}) select ${ledgerCols.map((c) => ledger[c] ?? `t.${c}`).join(', ')} ${join} t_ledger t order by n.i`,
      );
      await engine.exec('commit');
      console.log(`sales ${end.toLocaleString()} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    // Member number j got one sale per i in [haveSales, want.sales) with i mod members = j.
    await engine.exec('begin');
    const times = (j: string) =>
      `(${s.div(`${want.sales} - 1 - ${j} + ${members}`, String(members))} - ${s.div(`${haveSales} - 1 - ${j} + ${members}`, String(members))})`;
    await engine.exec(
      `update balances set balance = balance + ${points} * ${times('m.n')}, lifetime_points = lifetime_points + ${points} * ${times('m.n')} from t_members m where m.id = balances.member_id and balances.reward_id = ''`,
    );
    await engine.exec(
      `update balances set stamps_total = stamps_total + ${stamps} * ${times('m.n')}, cards_completed = ${s.div(`stamps_total + ${stamps} * ${times('m.n')}`, String(required))} from t_members m where m.id = balances.member_id and balances.reward_id <> ''`,
    );
    await engine.exec('commit');

    // Journal entries: one per generated sale (its transaction id), oldest first.
    const haveJournal = await count(journal, 'gw_deliveries', `where transaction_id like 'H-%'`);
    // Within the journal's retention (the last 13 of its 14 days), and spread over as many
    // connections as keep each under the journal's cap of 100,000 entries per connection: a
    // journal that large is an operator's with many stores, which the pruning keeps as it is.
    const span = 13 * 24 * 3600 * 1000;
    const journalBase = Date.now() - span;
    const deliveryMs = (i: string) => `${journalBase} + ${s.div(`${i} * ${span}`, String(Math.max(1, want.journal)))}`;
    const connections = Math.max(1, Math.ceil(want.journal / 90_000));
    const id = `${s.base36(deliveryMs('n.i'))} || '-' || ${s.pad('n.i % 100000', 5)} || '-000000scale'`;
    const txId = `'H-' || ${s.pad('n.i', 10)}`;
    const deliveryCols = await columns(journal, 'gw_deliveries');
    const overrides: Record<string, string> = {
      id,
      received_at: s.int(deliveryMs('n.i')),
      request_id: `'scale-' || n.i`,
      transaction_id: txId,
      event_id: `${txId} || ':completed'`,
      // Regions and keys as the journal spreads them (hash % 16, 32-bit keys): any even spread will do.
      request_region: 'n.i % 16',
      request_key: s.int(`(n.i * 2654435761) % 4294967296 - 2147483648`),
      transaction_region: '(n.i / 16) % 16',
      transaction_key: s.int(`(n.i * 40503 + 7) % 4294967296 - 2147483648`),
      connection_id: `'scale-connection-' || (n.i % ${connections})`,
      connection_region: `(n.i % ${connections}) % 16`,
    };
    for (const c of Object.keys(overrides)) if (!deliveryCols.includes(c)) delete overrides[c];
    await copyRows(journal, 'gw_deliveries', 't_delivery', overrides, haveJournal, want.journal);
    console.log(`journal ${want.journal.toLocaleString()} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    // On PostgreSQL the credits' updates above leave a dead version of every balances row (2,000,000
    // at 1,000,000 members): vacuumed, as autovacuum would have been over the life of a ledger this
    // size, so that the bench does not read dead rows. The file keeps its size (493 MB for 246 MB of
    // live rows at 1,000,000 members), its pages half free: an earn's update then finds room beside
    // its row (a HOT update, ~95 % of them), as on a ledger whose rows autovacuum has seen move.
    if (engine.dialect === 'postgres') await engine.exec('vacuum analyze');
    else {
      await engine.exec('analyze');
      await journal.exec('analyze');
    }
  } catch (error) {
    console.error(error);
    throw error;
  } finally {
    await engine.close();
    if (journal !== engine) await journal.close();
  }
  writeFileSync(path.join(dir, 'sizes.json'), JSON.stringify(want));
  console.log(`grown to ${JSON.stringify(want)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, members, sales, journalEntries] = process.argv.slice(2);
  if (!dir || !members || !sales || !journalEntries) throw new Error('usage: scale-seed.ts DIR MEMBERS SALES JOURNAL');
  await grow(dir, { members: Number(members), sales: Number(sales), journal: Number(journalEntries) }, process.env.SCALE_POSTGRES_URL);
}
