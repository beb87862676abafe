import { hiddenCharacterProblem, JsonObject, operatorId, operatorName, toNfc } from '@loyalty-gateway/core';
import { z } from 'zod';
import { StoreInputError } from './store-errors.js';

/** Lowercase, permanent vendor slug as used in X-Service-Vendor and /webhooks/{slug}. */
export const VendorSlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single hyphens')
  .max(64);
export const VendorTierInput = z.enum(['generic', 'featured']);
const SecretJsonInput = JsonObject;
/**
 * A vendor-side store id as an operator creates it: no trimming, no case folding (the header
 * must match it byte for byte), in NFC (how a person reads it: one id, however its accents were
 * typed). HTTP trims spaces and tabs around a header value and cannot carry control characters,
 * so an id with either could never authenticate; a bidirectional control or an invisible
 * character would make it show as another store: all refused, saying why. A look-alike of
 * another store of the same vendor is refused by the store itself (it needs the other ids).
 */
export const StoreId = z
  .string()
  .superRefine((value, ctx) => {
    const problem = hiddenCharacterProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .overwrite(toNfc)
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .refine(
    (v) => !/^[ \t]|[ \t]$/.test(v),
    'must not start or end with a space or tab: HTTP trims them from the X-Service-Store header, so no request could match it',
  )
  .refine(
    (v) => !/[\u0000-\u0008\u000A-\u001F\u007F]/.test(v),
    'must not contain control characters such as line breaks: an HTTP header cannot carry them',
  );
const Identifier = operatorId;
const Secret = z.string().min(1).max(1024);

/** A vendor's display name. */
export const VendorNameInput = operatorName;

export const VendorInputSchema = z.object({
  slug: VendorSlug,
  name: VendorNameInput,
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
