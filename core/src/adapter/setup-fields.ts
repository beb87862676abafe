import { z } from 'zod';
import { shapeOf } from './schema-shape.js';

/** A field of the guided setup page's "what you need to supply" table. */
export interface SetupField {
  key: string;
  label: string;
  help: string;
  /** Kept encrypted and never shown again. */
  secret: boolean;
}

/**
 * What a settings or credentials field declares about itself for the people who fill it in:
 * `.meta({ title, description, secret? })` (zod's global registry; `title` and `description` are
 * JSON Schema's own keywords). Put `.meta()` last, after `.optional()` or `.default()`.
 */
export interface SetupFieldMeta {
  /** The label people see, e.g. "Admin API access token". */
  title: string;
  /** Where to find it or what it is for. */
  description: string;
  /** Kept encrypted and never shown again (tokens, keys). Default false. */
  secret?: boolean;
}

interface WrapperDef {
  type?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

/** A field's metadata: its own, or that of the schema it wraps (`.optional()`, `.default()`, a pipe). */
function metaOf(field: z.ZodType): Partial<SetupFieldMeta> | undefined {
  let current: z.ZodType | undefined = field;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const meta = z.globalRegistry.get(current);
    if (meta?.title !== undefined || meta?.description !== undefined) return meta as Partial<SetupFieldMeta>;
    const def: WrapperDef = (current as unknown as { _zod: { def: WrapperDef } })._zod.def;
    current = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  }
  return undefined;
}

/**
 * The setup fields of a settings or credentials schema, in declaration order, from each field's
 * `.meta()`. Throws naming the first field that declares no title or description: every field a
 * merchant or an operator fills in says what it is.
 */
export function setupFields(schema: z.ZodType, name = 'schema'): SetupField[] {
  const shape = shapeOf(schema) ?? {};
  return Object.entries(shape).map(([key, field]) => {
    const meta = metaOf(field);
    if (typeof meta?.title !== 'string' || typeof meta.description !== 'string') {
      throw new Error(`${name}.${key} declares no .meta({ title, description }): the setup page could not say what it is`);
    }
    return { key, label: meta.title, help: meta.description, secret: meta.secret === true };
  });
}
