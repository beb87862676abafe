import { z } from 'zod';

/**
 * A JSON object an operator sends (provider settings, connection credentials), kept exactly as
 * parsed for the strict schema that checks it next. z.record rebuilt it and lost a `__proto__`
 * key (JSON.parse makes it an own property; assigning it sets the prototype instead), so that one
 * unknown key passed where every other is refused.
 */
export const JsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  {
    message: 'must be a JSON object',
  },
);
