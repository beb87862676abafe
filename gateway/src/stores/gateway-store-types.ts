import type { ConnectionStore } from '@loyalty-gateway/core';
import type { VendorTier } from './gateway-tables.js';
import type { CatalogRunStatus, CatalogRunTrigger } from './operator-tables.js';
import type { RunListFilter } from './run-history.js';

export type { VendorTier } from './gateway-tables.js';

/** Provider-level settings (app secrets...) or per-connection credentials; encrypted at rest. */
export type SecretJson = Record<string, unknown>;

export interface Vendor {
  slug: string;
  name: string;
  tier: VendorTier;
  /** Decrypted provider settings, or null when none are stored. */
  settings: SecretJson | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A vendor as listed: no settings are decrypted or returned. */
export interface VendorSummary {
  slug: string;
  name: string;
  tier: VendorTier;
  hasSettings: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface VendorInput {
  slug: string;
  name: string;
  tier: VendorTier;
  /** On upsert: undefined keeps the stored settings, null removes them. */
  settings?: SecretJson | null | undefined;
}

/** A connection as shown to operators: never its secrets. */
export interface ConnectionSummary {
  id: string;
  vendor: string;
  storeId: string;
  merchantId: string;
  outletId: string;
  active: boolean;
  /** Secrets accepted right now (more than one during a rotation overlap). */
  secretCount: number;
  hasCredentials: boolean;
  createdAt: Date;
}

export interface ConnectionInput {
  vendor: string;
  /** Exactly as the merchant entered it (spaces, slashes and case are significant). */
  storeId: string;
  merchantId: string;
  outletId: string;
  /** The merchant's own secret; generated (`whsec_` + 32 random bytes, base64url) when absent. */
  secret?: string | undefined;
  active?: boolean | undefined;
  credentials?: SecretJson | null | undefined;
}

export interface ConnectionFilter {
  vendor?: string | undefined;
  merchantId?: string | undefined;
}

export interface RotateSecretOptions {
  /** Older secrets stay accepted until this instant (never later than any deadline they already had). */
  overlapUntil: Date;
  /** The new secret; generated when absent. */
  secret?: string | undefined;
}

/** The new secret is in clear here only: it is shown once and stored encrypted. */
export interface IssuedSecret {
  connection: ConnectionSummary;
  secret: string;
}

export interface GatewayStore extends ConnectionStore {
  upsertVendor(input: VendorInput): Promise<Vendor>;
  /** Create the vendor if absent; an existing vendor is returned unchanged (idempotent seeding). */
  ensureVendor(input: VendorInput): Promise<{ vendor: Vendor; created: boolean }>;
  getVendor(slug: string): Promise<Vendor | null>;
  listVendors(): Promise<VendorSummary[]>;
  setVendorTier(slug: string, tier: VendorTier): Promise<Vendor>;
  /** Rename (display only; the slug is permanent). */
  setVendorName(slug: string, name: string): Promise<Vendor>;
  setVendorSettings(slug: string, settings: SecretJson | null): Promise<Vendor>;

  /** Throws ConnectionExistsError when (vendor, storeId) is taken, VendorNotFoundError for an unknown vendor. */
  createConnection(input: ConnectionInput): Promise<IssuedSecret>;
  /** Create if (vendor, storeId) is absent; otherwise change nothing and return the existing one. */
  ensureConnection(input: ConnectionInput & { secret: string }): Promise<{ connection: ConnectionSummary; created: boolean }>;
  getConnection(connectionId: string): Promise<ConnectionSummary | null>;
  listConnections(filter?: ConnectionFilter): Promise<ConnectionSummary[]>;
  rotateSecret(connectionId: string, options: RotateSecretOptions): Promise<IssuedSecret>;
  setConnectionActive(connectionId: string, active: boolean): Promise<ConnectionSummary>;
  getCredentials(connectionId: string): Promise<SecretJson | null>;
  setCredentials(connectionId: string, credentials: SecretJson | null): Promise<ConnectionSummary>;

  /** Readiness: one round trip to the database. */
  ping(): Promise<void>;
  /** Drops the caches; the database is the caller's and stays open. */
  close(): Promise<void>;
}

// ---- Operator stores (migration 0002): vendor notes and catalog pull runs ----

export type { CatalogRunStatus, CatalogRunTrigger } from './operator-tables.js';

/** Something a vendor told us that an operator must see (a webhook handshake, a test ping). */
export interface VendorNoteInput {
  /** e.g. `clover.verificationCode`, `square.testNotification` (max 100 chars). */
  kind: string;
  /** The value to show (max 4096 chars); never a secret the gateway must keep. */
  value: string;
  note?: string | null | undefined;
}

export interface VendorNote {
  id: string;
  vendor: string;
  kind: string;
  value: string;
  note: string | null;
  /** When it was last recorded. */
  createdAt: Date;
  /** How many times the same (kind, value) was recorded. */
  count: number;
  /** When it was first recorded. */
  firstSeenAt: Date;
}

export interface VendorNoteStore {
  recordVendorNote(slug: string, input: VendorNoteInput): Promise<VendorNote>;
  /** Newest first; every vendor's when no slug is given (at most `limit`, default 100). */
  listVendorNotes(slug?: string, limit?: number): Promise<VendorNote[]>;
}

export interface CatalogRunCounts {
  pages: number;
  items: number;
  created: number;
  updated: number;
  deactivated: number;
  attempts: number;
}

export interface CatalogRun extends CatalogRunCounts {
  id: string;
  vendor: string;
  connectionId: string;
  trigger: CatalogRunTrigger;
  slot: string;
  status: CatalogRunStatus;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

/** Which catalog runs a list returns (the same filter as every run list). */
export type CatalogRunFilter = RunListFilter;

/** Why a claim did not produce a run: the slot was taken, or a run for the connection is in progress. */
export type CatalogClaim =
  { claimed: true; run: CatalogRun } | { claimed: false; reason: 'slot_taken' | 'in_progress'; existing: CatalogRun | null };

export interface CatalogRunStore {
  /** Insert the run's row; the unique keys decide, on every process, who runs this slot. */
  claim(input: { vendor: string; connectionId: string; trigger: CatalogRunTrigger; slot?: string }): Promise<CatalogClaim>;
  /** Progress (bumps the heartbeat). */
  progress(runId: string, counts: Partial<CatalogRunCounts>): Promise<void>;
  finish(
    runId: string,
    outcome: { status: 'succeeded' | 'failed'; error?: string | null } & Partial<CatalogRunCounts>,
  ): Promise<CatalogRun>;
  get(runId: string): Promise<CatalogRun | null>;
  list(filter?: CatalogRunFilter): Promise<CatalogRun[]>;
  /** Delete the finished runs started before `before` (GATEWAY_RUNS_DAYS); how many were deleted. Stops early once `signal` aborts. */
  prune(before: Date, signal?: AbortSignal): Promise<number>;
}
