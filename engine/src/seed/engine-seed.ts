import { z } from 'zod';
import { checkSeedReferences } from './check-seed-references.js';
import { MerchantSeed } from './merchant-seed.js';

/**
 * The engine part of the sandbox seed file (the gateway strips `connections` and `vendors`).
 * Strict: unknown fields fail. Cross-references are checked here too (issued code → reward and
 * member of the same merchant, duplicate ids, phone format, issued codes carrying `codePrefix`, or
 * the default `LOYAL` when it is not set) so an invalid file fails at parse time with a path
 * naming the culprit. Whether that prefix fits the engine's is checked when applying.
 */
export const EngineSeed = z
  .strictObject({
    codePrefix: z
      .string()
      .regex(/^[A-Za-z0-9]{1,20}$/, { message: 'must be 1–20 letters or digits' })
      .optional(),
    merchants: z.array(MerchantSeed).default([]),
  })
  .superRefine(checkSeedReferences);
export type EngineSeed = z.infer<typeof EngineSeed>;
/** What applySeed accepts: the seed before defaults are filled (a parsed EngineSeed fits too). */
export type EngineSeedInput = z.input<typeof EngineSeed>;

export { DEFAULT_CODE_PREFIX } from './code-prefix.js';
