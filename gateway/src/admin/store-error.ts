import { GatewayError } from '@loyalty-gateway/core';
import {
  ConnectionExistsError,
  ConnectionNotFoundError,
  LookAlikeStoreIdError,
  StoreInputError,
  VendorNotFoundError,
} from '../stores/index.js';

/** The gateway store's typed failures as coded errors of the Error body. */
export function toAdminError(error: unknown): unknown {
  if (error instanceof ConnectionExistsError) return new GatewayError('connection_exists', { cause: error });
  if (error instanceof ConnectionNotFoundError) return new GatewayError('connection_not_found', { cause: error });
  if (error instanceof VendorNotFoundError) return new GatewayError('vendor_not_found', { cause: error });
  if (error instanceof LookAlikeStoreIdError)
    return new GatewayError('validation_failed', {
      message: `The store id reads as another store of ${error.vendor}: storeId ${error.problem}.`,
      fields: [{ path: 'storeId', message: error.problem }],
      cause: error,
    });
  if (error instanceof StoreInputError) return new GatewayError('validation_failed', { message: error.message, cause: error });
  return error;
}

/** Run a store call, rethrowing its failures as coded errors. */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAdminError(error);
  }
}
