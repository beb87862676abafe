import type { ConnectionFilter, ConnectionSummary } from './gateway-store-types.js';
import { ConnectionNotFoundError } from './store-errors.js';
import type { RepositoryContext } from './vendor-repository.js';

type SummaryRow = {
  id: string;
  vendor: string;
  store_id: string;
  merchant_id: string;
  outlet_id: string;
  active: number;
  has_credentials: number;
  created_at: number;
  secret_count: number | string | bigint | null;
};

const toSummary = (row: SummaryRow): ConnectionSummary => ({
  id: row.id,
  vendor: row.vendor,
  storeId: row.store_id,
  merchantId: row.merchant_id,
  outletId: row.outlet_id,
  active: Number(row.active) === 1,
  secretCount: Number(row.secret_count),
  hasCredentials: Number(row.has_credentials) === 1,
  createdAt: new Date(Number(row.created_at)),
});

/** Read-side queries on connections: summaries (never secrets) for operators and seeding. */
export function createConnectionQueries({ db, now }: RepositoryContext) {
  const summaries = () => {
    const at = now().getTime();
    return db.selectFrom('gw_connections as c').select((eb) => [
      'c.id',
      'c.vendor',
      'c.store_id',
      'c.merchant_id',
      'c.outlet_id',
      'c.active',
      'c.created_at',
      eb.case().when('c.credentials_sealed', 'is not', null).then(1).else(0).end().as('has_credentials'),
      eb
        .selectFrom('gw_connection_secrets as s')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('s.connection_id', '=', 'c.id')
        .where((e) => e.or([e('s.expires_at', 'is', null), e('s.expires_at', '>', at)]))
        .as('secret_count'),
    ]);
  };

  async function get(connectionId: string): Promise<ConnectionSummary | null> {
    const row = await summaries().where('c.id', '=', connectionId).executeTakeFirst();
    return row ? toSummary(row) : null;
  }

  return {
    get,

    async require(connectionId: string): Promise<ConnectionSummary> {
      const summary = await get(connectionId);
      if (!summary) throw new ConnectionNotFoundError(connectionId);
      return summary;
    },

    async findSummary(vendor: string, storeId: string): Promise<ConnectionSummary | null> {
      const row = await summaries().where('c.vendor', '=', vendor).where('c.store_id', '=', storeId).executeTakeFirst();
      return row ? toSummary(row) : null;
    },

    async list(filter: ConnectionFilter = {}): Promise<ConnectionSummary[]> {
      let query = summaries();
      if (filter.vendor !== undefined) query = query.where('c.vendor', '=', filter.vendor);
      if (filter.merchantId !== undefined) query = query.where('c.merchant_id', '=', filter.merchantId);
      const rows = await query.orderBy('c.vendor').orderBy('c.store_id').orderBy('c.id').execute();
      return rows.map((row) => toSummary(row));
    },

    /** The (vendor, storeId) of a connection, to invalidate its cache entry after a write. */
    async locate(connectionId: string): Promise<{ vendor: string; storeId: string } | null> {
      const row = await db.selectFrom('gw_connections').select(['vendor', 'store_id']).where('id', '=', connectionId).executeTakeFirst();
      return row ? { vendor: row.vendor, storeId: row.store_id } : null;
    },
  };
}
