import type { z } from 'zod';
import { shapeOf } from './schema-shape.js';
import { setupFields, type SetupField } from './setup-fields.js';

/** A setup field as a form asks for it: what kind of input, whether it may be left out, and what applies then. */
export interface SetupFormField extends SetupField {
  /** A checkbox for a field that takes true or false; a line of text for everything else. */
  input: 'checkbox' | 'text';
  /** The schema refuses the settings without it. */
  required: boolean;
  /** What the schema applies when the field is left out (its `.default()`), when that is text or true/false. */
  defaultValue: string | boolean | undefined;
}

/**
 * The setup fields of a settings or credentials schema (`setupFields`), each with what a form
 * needs to ask for it, read by asking the field's own schema (so `.optional()`, `.default()` and
 * pipes answer as they parse): the console's provider-settings and credentials forms are generated
 * from it, so a new adapter's fields appear there without touching the console.
 */
export function setupFormFields(schema: z.ZodType, name = 'schema'): SetupFormField[] {
  const shape = shapeOf(schema) ?? {};
  return setupFields(schema, name).map((field) => {
    const fieldSchema = shape[field.key]!;
    const absent = fieldSchema.safeParse(undefined);
    const boolean = fieldSchema.safeParse(true).success && fieldSchema.safeParse(false).success && !fieldSchema.safeParse('text').success;
    const applied = absent.success ? absent.data : undefined;
    return {
      ...field,
      input: boolean ? 'checkbox' : 'text',
      required: !absent.success,
      defaultValue: typeof applied === 'string' || typeof applied === 'boolean' ? applied : undefined,
    };
  });
}
