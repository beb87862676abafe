import type { Generated } from 'kysely';
/**
 * Row types of the operator tables added by migration 0002 (vendor notes, catalog pull runs).
 * Same conventions as gateway-tables.ts: epoch milliseconds in bigint columns, no secrets.
 */
export interface GwVendorNotesTable {
  id: string;
  vendor: string;
  /** What was recorded, e.g. `clover.verificationCode`, `square.testNotification`. */
  kind: string;
  value: string;
  note: string | null;
  /** When it was last recorded (the list's order). */
  created_at: number;
  /** How many times it was recorded (migration 0003). */
  count: Generated<number>;
  /** When it was first recorded; null on notes older than migration 0003. */
  first_seen_at: number | null;
}

export type CatalogRunTrigger = 'schedule' | 'manual';
export type CatalogRunStatus = 'running' | 'succeeded' | 'failed';

export interface GwCatalogRunsTable {
  id: string;
  vendor: string;
  connection_id: string;
  trigger: CatalogRunTrigger;
  /** The schedule tick (ISO instant) or, for a manual run, the run's own id. */
  slot: string;
  status: CatalogRunStatus;
  started_at: number;
  /** Bumped after every page: a `running` row whose heartbeat is old was abandoned. */
  heartbeat_at: number;
  finished_at: number | null;
  pages: number;
  items: number;
  created: number;
  updated: number;
  deactivated: number;
  attempts: number;
  error: string | null;
}

export interface OperatorTables {
  gw_vendor_notes: GwVendorNotesTable;
  gw_catalog_runs: GwCatalogRunsTable;
}
