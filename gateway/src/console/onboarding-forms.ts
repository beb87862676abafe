/** What the onboarding pages share: reading a posted form as the admin API would, path parameters, a refusal in words. */
import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyRequest } from 'fastify';
import { IdParams, SlugParams } from '../admin/admin-schemas.js';
import type { ConsoleForm } from './setup-form.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleKit } from './console-kit.js';

/** The posted form (the console's form parser gives strings; anything else is no form at all). */
export function formOf(body: unknown): ConsoleForm {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The named fields as the admin API would receive them: an empty one left out (so it is named as missing), the rest as typed. */
export function fieldsOf(form: ConsoleForm, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((key) => form[key] !== undefined && form[key] !== '').map((key) => [key, form[key]!]));
}

/** A number field typed as a number is sent as one; anything else as typed, for the admin API's schema to name. */
export const numberOrText = (value: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

export const param = <T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  params: unknown,
  notFound: GatewayError,
) => {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw notFound;
  return parsed.data;
};
export const vendorSlug = (params: unknown) => param(SlugParams, params, new GatewayError('vendor_not_found')).slug;
export const connectionId = (params: unknown) => param(IdParams, params, new GatewayError('connection_not_found')).id;

/** A refusal as the page shows it: its status, and the admin API's words as the page's error. */
export const refusedWith =
  (failureOf: ConsoleKit['failureOf']) =>
  (error: unknown, request: FastifyRequest): { status: number; message: ConsoleMessage } => {
    const { status, text } = failureOf(error, request);
    return { status, message: { kind: 'error', text } };
  };
