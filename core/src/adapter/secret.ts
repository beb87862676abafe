import { z } from 'zod';

/**
 * A secret a vendor signs or authenticates with: one, or a list while a rotated secret overlaps the
 * old one (each verifies). What an adapter's settings declare under the key its auth scheme reads.
 */
export const Secret = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
export type Secret = z.infer<typeof Secret>;
