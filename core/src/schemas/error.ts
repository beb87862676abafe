import { z } from 'zod';

export const FieldError = z.strictObject({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** The spec's Error body, rendered for every failure. */
export const ErrorBody = z.strictObject({
  statusCode: z.number().int(),
  message: z.string(),
  code: z.string(),
  fields: z.array(FieldError).optional(),
  requestId: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
