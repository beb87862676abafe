import { z } from 'zod';
import { pemBundleProblem } from './pem-bundle.js';

/**
 * Where a scheme's secret lives: in the vendor's provider settings (one app secret for every
 * merchant, e.g. Shopify's client secret) or on each merchant connection (the generic tier's way).
 * A settings value may be one string or a list (rotation overlap).
 */
export const SecretSource = z.discriminatedUnion('from', [
  z.strictObject({ from: z.literal('settings'), key: z.string().min(1) }),
  z.strictObject({ from: z.literal('connection') }),
]);
export type SecretSource = z.infer<typeof SecretSource>;

/** Which bytes an HMAC covers. */
export const SignedContent = z.enum(['body', 'url+body', 'timestamp+body']);

export const HmacScheme = z
  .strictObject({
    kind: z.literal('hmac'),
    header: z.string().min(1).toLowerCase(),
    /** Text before the digest in the header, e.g. `sha256=` or `v1=`. */
    prefix: z.string().default(''),
    algorithm: z.enum(['sha256', 'sha1']).default('sha256'),
    encoding: z.enum(['base64', 'hex']).default('base64'),
    signed: SignedContent.default('body'),
    /** For `timestamp+body`: the header carrying the timestamp, the separator, the tolerance. */
    timestampHeader: z.string().toLowerCase().optional(),
    separator: z.string().default('.'),
    toleranceSeconds: z.number().int().positive().default(300),
    secret: SecretSource,
  })
  .refine((scheme) => scheme.signed !== 'timestamp+body' || !!scheme.timestampHeader, {
    path: ['timestampHeader'],
    message: 'is required when signed is "timestamp+body" (the header carrying the signed timestamp)',
  });
export type HmacScheme = z.infer<typeof HmacScheme>;

export const StaticHeaderScheme = z.strictObject({
  kind: z.literal('static-header'),
  header: z.string().min(1).toLowerCase(),
  /** Text before the token, e.g. `Bearer `. */
  prefix: z.string().default(''),
  secret: SecretSource,
});
export type StaticHeaderScheme = z.infer<typeof StaticHeaderScheme>;

export const MtlsScheme = z.strictObject({
  kind: z.literal('mtls'),
  /**
   * `direct`: the gateway terminates TLS (an HTTPS listener with requestCert) and checks the peer.
   * `proxy`: a TLS-terminating proxy forwards the verified client certificate (URL-encoded PEM,
   * as nginx's `$ssl_client_escaped_cert`) in `certificateHeader`, trusted only from `trustedProxies`.
   */
  mode: z.enum(['direct', 'proxy']),
  /** PEM of the provider's CA(s); the client chain must end in one of them. */
  caPem: z.string().superRefine((pem, ctx) => {
    const problem = pemBundleProblem(pem);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** Optional pins: SHA-256 fingerprints of accepted leaf certificates (`AB:CD:...`, any case). */
  fingerprints: z
    .array(
      z.string().refine((pin) => /^[0-9a-f]{64}$/i.test(pin.replace(/[:\s-]/g, '')), {
        message: 'must be a SHA-256 fingerprint: 64 hex digits, optionally separated by colons',
      }),
    )
    .default([]),
  /** Optional: the leaf's subject must contain this `CN=...` (or any `key=value`) exactly. */
  subject: z.string().optional(),
  certificateHeader: z.string().toLowerCase().default('x-client-cert'),
  trustedProxies: z.array(z.string()).default([]),
});
export type MtlsScheme = z.infer<typeof MtlsScheme>;

/** A provider's authentication: configuration, not code. Adapters declare a default. */
export const AuthScheme = z.discriminatedUnion('kind', [HmacScheme, StaticHeaderScheme, MtlsScheme]);
export type AuthScheme = z.infer<typeof AuthScheme>;
export type AuthSchemeInput = z.input<typeof AuthScheme>;

export type AuthFailure = 'missing_credentials' | 'bad_signature' | 'stale_timestamp' | 'untrusted_certificate';
export type AuthCheck = { ok: true } | { ok: false; reason: AuthFailure; detail: string };
