import type { DependencyContainer } from 'tsyringe';
import { buildApp, type AppOptions } from '../app.js';
import type { GatewayConfig } from '../config.js';
import { outboundPolicyOf } from '../outbound-policy.js';
import { get, open, perContainer, provide, resource } from './container.js';
import { TOKENS } from './tokens.js';

/** The featured doors' options, the app's options (the mTLS listener's app is built from them too) and the main app. */
export function registerApp(c: DependencyContainer, config: GatewayConfig): void {
  provide(
    c,
    TOKENS.featured,
    perContainer(async (r) => ({
      store: await open(r, TOKENS.store),
      notes: await open(r, TOKENS.notes),
      publicUrl: config.GATEWAY_PUBLIC_URL,
      outbound: outboundPolicyOf(config),
    })),
  );
  provide(c, TOKENS.appOptionsOverride, { useValue: {} });
  provide(
    c,
    TOKENS.appOptions,
    perContainer(async (r): Promise<AppOptions> => {
      const config = get(r, TOKENS.config);
      const logger = get(r, TOKENS.logger);
      const store = await open(r, TOKENS.store);
      return {
        engine: await open(r, TOKENS.engine),
        connections: store,
        idempotency: await open(r, TOKENS.idempotency),
        pipeline: await open(r, TOKENS.pipeline),
        redis: await open(r, TOKENS.redis),
        clock: get(r, TOKENS.clock),
        rateLimit: {
          max: config.GATEWAY_RATE_LIMIT,
          preview: config.GATEWAY_PREVIEW_RATE_LIMIT,
          deliveryLog: config.GATEWAY_DELIVERY_LOG_RATE_LIMIT,
        },
        ...(logger ? { loggerInstance: logger } : { logger: false }),
        requestLineLogger: get(r, TOKENS.requestLineLogger),
        environment: config.GATEWAY_ENV,
        features: config.GATEWAY_FEATURES,
        storePing: () => store.ping(),
        featured: (await open(r, TOKENS.featured)) ?? undefined,
        metrics: (await open(r, TOKENS.metrics)) ?? undefined,
        http: { requestTimeoutMs: config.GATEWAY_REQUEST_TIMEOUT_MS, maxConnections: config.GATEWAY_MAX_CONNECTIONS },
        refusalLimit: { max: config.GATEWAY_REFUSED_LIMIT },
        trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
        journal: (await open(r, TOKENS.journal)) ?? undefined,
        ...get(r, TOKENS.appOptionsOverride),
      };
    }),
  );
  provide(
    c,
    TOKENS.app,
    resource(
      'app',
      async (r) => {
        // The data first (seed file, demo sandbox), then the doors.
        await open(r, TOKENS.seeded);
        const options = await open(r, TOKENS.appOptions);
        const operator = await open(r, TOKENS.operatorSide);
        return buildApp({ ...options, ...operator?.appOptions });
      },
      (app) => app.close(),
    ),
  );
}
