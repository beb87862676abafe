import type { z } from 'zod';

interface SchemaDef {
  type?: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
}

/** The object shape behind a settings or credentials schema (through `.transform()` pipes), or null when it has none to read. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const def: SchemaDef | undefined = (current as unknown as { _zod?: { def?: SchemaDef } })._zod?.def;
    if (def?.type === 'object') return def.shape ?? null;
    if (def?.type !== 'pipe') return null;
    current = def.in;
  }
  return null;
}
