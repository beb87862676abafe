import { z } from 'zod';
import { StoreInputError } from './store-errors.js';

/** Lowercase, permanent vendor slug as used in X-Service-Vendor and /webhooks/{slug}. */
export const VendorSlug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens').max(64);
export const VendorTierInput = z.enum(['generic', 'featured']);
const SecretJsonInput = z.record(z.string(), z.unknown());
/** Kept exactly: no trimming, no case folding (the header must match it byte for byte). */
const StoreId = z.string().min(1).max(255);
const Identifier = z.string().min(1).max(255);
const Secret = z.string().min(1).max(1024);

export const VendorInputSchema = z.object({
  slug: VendorSlug,
  name: z.string().min(1).max(255),
  tier: VendorTierInput,
  settings: SecretJsonInput.nullish(),
});

export const ConnectionInputSchema = z.object({
  vendor: VendorSlug,
  storeId: StoreId,
  merchantId: Identifier,
  outletId: Identifier,
  secret: Secret.optional(),
  active: z.boolean().optional(),
  credentials: SecretJsonInput.nullish(),
});

export const RotateSecretSchema = z.object({
  overlapUntil: z.date().refine((d) => !Number.isNaN(d.getTime()), 'a valid date'),
  secret: Secret.optional(),
});

export const SecretJsonSchema = SecretJsonInput.nullable();

/** Parse an input, turning a zod failure into a StoreInputError that names the field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
  throw new StoreInputError(`invalid ${what}: ${problems}`);
}
