/**
 * Row types of the gateway's own tables (all prefixed `gw_`). Times are epoch milliseconds in
 * bigint columns (read back as numbers on both dialects); booleans are 0/1 integers so both
 * dialects return the same thing. Columns named `*_sealed` hold SecretBox output, never plaintext.
 */
export type VendorTier = 'generic' | 'featured';

export interface GwVendorsTable {
  slug: string;
  name: string;
  tier: VendorTier;
  settings_sealed: string | null;
  created_at: number;
  updated_at: number;
}

export interface GwConnectionsTable {
  id: string;
  vendor: string;
  /** Exactly as the merchant entered it: compared with plain (binary/deterministic) equality. */
  store_id: string;
  merchant_id: string;
  outlet_id: string;
  active: number;
  credentials_sealed: string | null;
  created_at: number;
  updated_at: number;
}

export interface GwConnectionSecretsTable {
  id: string;
  connection_id: string;
  secret_sealed: string;
  created_at: number;
  /** Null: no deadline. A secret is accepted only while `expires_at` is null or in the future. */
  expires_at: number | null;
}

export interface GatewayTables {
  gw_vendors: GwVendorsTable;
  gw_connections: GwConnectionsTable;
  gw_connection_secrets: GwConnectionSecretsTable;
}

/** AAD contexts: bind each sealed value to the row and column it belongs to. */
export const sealContext = {
  vendorSettings: (slug: string) => `gw_vendors.settings:${slug}`,
  connectionCredentials: (connectionId: string) => `gw_connections.credentials:${connectionId}`,
  connectionSecret: (connectionId: string) => `gw_connection_secrets:${connectionId}`,
} as const;
