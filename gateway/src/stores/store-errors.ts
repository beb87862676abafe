import { lookAlikeDifference, type ErrorCode } from '@loyalty-gateway/core';

/**
 * Typed failures of the gateway store, free of HTTP. The admin API answers them with the error
 * table's codes (admin/store-error.ts): the three that carry one of its codes with that code, a
 * look-alike store id and a bad input as `validation_failed` naming the field.
 */
export class ConnectionExistsError extends Error {
  readonly code = 'connection_exists' satisfies ErrorCode;
  constructor(
    readonly vendor: string,
    readonly storeId: string,
    options?: { cause?: unknown },
  ) {
    super(`a connection for vendor ${JSON.stringify(vendor)} and store ${JSON.stringify(storeId)} already exists`, options);
    this.name = 'ConnectionExistsError';
  }
}

/**
 * A new store id that reads as another store of the same vendor (lookAlikeKey): a person could
 * not tell the two connections apart. Names the existing one and where the two differ.
 */
export class LookAlikeStoreIdError extends Error {
  readonly code = 'look_alike_store_id';
  constructor(
    readonly vendor: string,
    readonly storeId: string,
    readonly existing: { storeId: string; connectionId: string },
  ) {
    super(
      `a connection for vendor ${JSON.stringify(vendor)} and store ${JSON.stringify(storeId)} cannot be created: its store id ${lookAlikeProblem(vendor, storeId, existing)}`,
    );
    this.name = 'LookAlikeStoreIdError';
  }

  /** The store id field's problem, for the Error body's `fields`. */
  get problem(): string {
    return lookAlikeProblem(this.vendor, this.storeId, this.existing);
  }
}

const lookAlikeProblem = (vendor: string, storeId: string, existing: { storeId: string; connectionId: string }) =>
  `looks like the existing store id ${JSON.stringify(existing.storeId)} of ${vendor} (connection ${existing.connectionId}), ` +
  `differing only in characters that look alike: ${lookAlikeDifference(storeId, existing.storeId)}`;

export class ConnectionNotFoundError extends Error {
  readonly code = 'connection_not_found' satisfies ErrorCode;
  constructor(readonly connectionId: string) {
    super(`no connection with id ${JSON.stringify(connectionId)}`);
    this.name = 'ConnectionNotFoundError';
  }
}

export class VendorNotFoundError extends Error {
  readonly code = 'vendor_not_found' satisfies ErrorCode;
  constructor(readonly slug: string) {
    super(`no vendor with slug ${JSON.stringify(slug)}`);
    this.name = 'VendorNotFoundError';
  }
}

/** An input to the store broke a rule (bad slug, empty store id, overlap deadline not a date...). */
export class StoreInputError extends Error {
  readonly code = 'invalid_store_input';
  constructor(message: string) {
    super(message);
    this.name = 'StoreInputError';
  }
}
