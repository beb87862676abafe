import type { z } from 'zod';
import { shapeOf } from './schema-shape.js';

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
