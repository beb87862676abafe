/**
 * Typed failures of the gateway store. Each carries a stable `code` the admin API can map to a
 * response (core's ERRORS table has no admin codes yet).
 */
export class ConnectionExistsError extends Error {
  readonly code = 'connection_exists';
  constructor(
    readonly vendor: string,
    readonly storeId: string,
    options?: { cause?: unknown },
  ) {
    super(`a connection for vendor ${JSON.stringify(vendor)} and store ${JSON.stringify(storeId)} already exists`, options);
    this.name = 'ConnectionExistsError';
  }
}

export class ConnectionNotFoundError extends Error {
  readonly code = 'connection_not_found';
  constructor(readonly connectionId: string) {
    super(`no connection with id ${JSON.stringify(connectionId)}`);
    this.name = 'ConnectionNotFoundError';
  }
}

export class VendorNotFoundError extends Error {
  readonly code = 'vendor_not_found';
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
