import type { AnyAdapter } from '@loyalty-gateway/core';
import { adapter as clover } from '@loyalty-gateway/adapter-clover';
import { adapter as shopify } from '@loyalty-gateway/adapter-shopify';
import { adapter as square } from '@loyalty-gateway/adapter-square';
import { adapter as woocommerce } from '@loyalty-gateway/adapter-woocommerce';

/**
 * The featured adapters the gateway mounts at /webhooks/{slug}: a typed list, not a directory scan,
 * so Nx's project graph sees every dependency. `nx g @loyalty-gateway/tools:adapter <slug>` adds to it.
 */
export const adapters: readonly AnyAdapter[] = [shopify, square, clover, woocommerce];
