import type { z } from 'zod';

interface SchemaDef {
  type?: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
}

/** The object shape behind a settings schema (through `.transform()` pipes), or null when it has none to read. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const def: SchemaDef | undefined = (current as unknown as { _zod?: { def?: SchemaDef } })._zod?.def;
    if (def?.type === 'object') return def.shape ?? null;
    if (def?.type !== 'pipe') return null;
    current = def.in;
  }
  return null;
}

/**
 * Why a settings schema cannot hold the secret a scheme reads from `settings[key]`, or null when it
 * can: the key must be declared, required, and accept a string or a list of strings (rotation).
 * A schema whose shape cannot be read is not judged here (the door still refuses a missing secret).
 */
export function settingsSecretKeyProblem(settings: z.ZodType, key: string): string | null {
  const shape = shapeOf(settings);
  if (!shape) return null;
  const field = shape[key];
  if (!field) return `its settings schema declares no "${key}" key`;
  if (field.safeParse(undefined).success) return `settings.${key} must be required: without it no request can verify`;
  if (!field.safeParse('a-secret').success && !field.safeParse(['a-secret']).success) {
    return `settings.${key} must accept a string or a list of strings`;
  }
  return null;
}
