import { z } from 'zod';

/** Unset and empty variables are the same thing (`DATABASE_URL=` turns PostgreSQL off). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

const port = z.coerce
  .number({ message: 'must be a number' })
  .int({ message: 'must be an integer' })
  .min(0, { message: 'must be between 0 and 65535' })
  .max(65535, { message: 'must be between 0 and 65535' });

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

export const GATEWAY_ENVIRONMENTS = ['development', 'uat', 'beta', 'production'] as const;

/**
 * The gateway's whole configuration, parsed once from the environment at boot.
 * HOST defaults to 127.0.0.1 in development (the demo sandbox prints its secret; nothing should
 * reach it from the network by accident) and to 0.0.0.0 elsewhere (containers, load balancers).
 */
export const GatewayConfig = z
  .object({
    PORT: optional(port).default(3000),
    HOST: optional(z.string().min(1)),
    GATEWAY_ENV: optional(z.enum(GATEWAY_ENVIRONMENTS, { message: `must be one of ${GATEWAY_ENVIRONMENTS.join(', ')}` })).default(
      'development',
    ),
    GATEWAY_DATA_DIR: optional(z.string()).default('./.data'),
    GATEWAY_SEED_FILE: optional(z.string()),
    GATEWAY_MASTER_KEY: optional(z.string()),
    DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
    REDIS_URL: optional(url(['redis:', 'rediss:'])),
    /** A remote loyalty engine (`npm run engine`) instead of the embedded one. */
    LOYALTY_ENGINE_URL: optional(url(['http:', 'https:'])),
    /** Bearer token the engine service expects (its ENGINE_TOKEN). */
    LOYALTY_ENGINE_TOKEN: optional(z.string().min(1)),
    /** Per-call timeout towards a remote engine. */
    LOYALTY_ENGINE_TIMEOUT_MS: optional(z.coerce.number({ message: 'must be a number' }).int().positive({ message: 'must be positive' })).default(2000),
    /**
     * Comma-separated `x-status: coming` endpoints enabled in production (elsewhere they are all on):
     * eligibility, redeem, refund, catalog-sync.
     */
    GATEWAY_FEATURES: optional(z.string()).transform((value) =>
      (value ?? '').split(',').map((f) => f.trim()).filter((f) => f !== ''),
    ).pipe(z.array(z.enum(['eligibility', 'redeem', 'refund', 'catalog-sync'], { message: 'must list only eligibility, redeem, refund, catalog-sync' }))),
    /** Bearer token of the /admin API. Required in production; without it elsewhere /admin is off. */
    GATEWAY_ADMIN_TOKEN: optional(z.string().min(24, { message: 'must be at least 24 characters' })),
    /** The public base URL vendors reach (webhook URLs on the directory's setup pages). */
    GATEWAY_PUBLIC_URL: optional(url(['http:', 'https:'])),
    /** Scheduled catalog pulls of featured vendors (node-cron): on by default. */
    GATEWAY_SCHEDULER: optional(z.enum(['on', 'off'], { message: 'must be on or off' })).default('on'),
    /** HTTPS listener that terminates TLS itself (mTLS `direct` mode): port, certificate and key files. */
    GATEWAY_TLS_PORT: optional(port),
    GATEWAY_TLS_CERT_FILE: optional(z.string()),
    GATEWAY_TLS_KEY_FILE: optional(z.string()),
    GATEWAY_RATE_LIMIT: optional(
      z.coerce.number({ message: 'must be a number' }).int({ message: 'must be a whole number' }).positive({ message: 'must be a positive number of requests per minute' }),
    ).default(600),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.GATEWAY_ENV === 'production' && !config.GATEWAY_ADMIN_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['GATEWAY_ADMIN_TOKEN'], message: 'is required in production (the /admin API must be authenticated)' });
    }
    if (config.GATEWAY_TLS_PORT !== undefined && (!config.GATEWAY_TLS_CERT_FILE || !config.GATEWAY_TLS_KEY_FILE)) {
      ctx.addIssue({ code: 'custom', path: ['GATEWAY_TLS_PORT'], message: 'needs GATEWAY_TLS_CERT_FILE and GATEWAY_TLS_KEY_FILE' });
    }
  })
  .transform(({ HOST, ...rest }) => ({
    ...rest,
    HOST: HOST ?? (rest.GATEWAY_ENV === 'development' ? '127.0.0.1' : '0.0.0.0'),
  }));
export type GatewayConfig = z.infer<typeof GatewayConfig>;

/** Raised for a bad environment; the message names every faulty variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parse the environment once. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const result = GatewayConfig.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${String(issue.path[0] ?? '(environment)')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
