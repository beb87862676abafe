import type { ConnectionStore } from '@loyalty-gateway/core';
import type { VendorTier } from './gateway-tables.js';

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
