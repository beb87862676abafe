import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import type * as FastifyOtel from '@fastify/otel';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as Ioredis from '@opentelemetry/instrumentation-ioredis';
import type * as Pg from '@opentelemetry/instrumentation-pg';
import type * as Undici from '@opentelemetry/instrumentation-undici';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';
import { setTracingRuntime, type SpanAttributes, type SpanHandle, type TracingRuntime } from './spans.js';
import { tracesExporterOf } from './tracing-wanted.js';

export interface StartTracingOptions {
  /** service.name when OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) does not say. */
  serviceName: string;
  /** Paths whose requests are not traced (probes, scrapes): every few seconds, never a story. */
  untracedPaths?: readonly string[];
  /** Attributes of a request's root span, read when it starts (the request id). */
  requestAttributes?: (request: { id: string; method: string; url: string; routeOptions?: { url?: string | undefined } }) => SpanAttributes;
}

export interface RunningTracing {
  /** Where the SDK's own warnings go (an exporter that cannot reach its collector), once a logger exists. */
  useLogger(log: { warn(message: string): void; error(message: string): void }): void;
  /** Export what is buffered and stop: spans of requests answered before a stop are not lost. */
  shutdown(): Promise<void>;
}

/**
 * Start OpenTelemetry tracing when the OTEL_* variables ask for it (tracesExporterOf), else return
 * undefined having loaded nothing of it. Loaded by `require` from node_modules on this path only
 * (like pg, ioredis and undici: the production bundle leaves them out, and a process that does not
 * trace keeps them out of its memory). Must run before Fastify instances are created and before
 * pg, ioredis or undici are first loaded: the instrumentations hook them as they load.
 *
 * Everything is configured by the standard variables, read by the SDK from the process
 * environment: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the resource), OTEL_TRACES_SAMPLER
 * and OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on), OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT,
 * _HEADERS and _TIMEOUT (the OTLP/HTTP exporter, JSON bodies), OTEL_BSP_* (the batch processor).
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  options: StartTracingOptions,
): Promise<RunningTracing | undefined> {
  const exporterKind = tracesExporterOf(env);
  if (exporterKind === undefined) return undefined;
  const load = createRequire(import.meta.url);
  const api = load('@opentelemetry/api') as typeof Api;
  const { NodeTracerProvider } = load('@opentelemetry/sdk-trace-node') as typeof TraceNode;
  const { BatchSpanProcessor, ConsoleSpanExporter } = load('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = load('@opentelemetry/resources') as typeof Resources;
  const { registerInstrumentations } = load('@opentelemetry/instrumentation') as typeof Instrumentation;

  // The SDK's own complaints (a collector that refuses or cannot be reached) go to our log once it exists.
  let sink: { warn(message: string): void; error(message: string): void } | undefined;
  const say =
    (level: 'warn' | 'error') =>
    (message: string, ...args: unknown[]) =>
      sink?.[level](`OpenTelemetry: ${[message, ...args.map((a) => (a instanceof Error ? a.message : String(a)))].join(' ')}`);
  api.diag.setLogger({ error: say('error'), warn: say('warn'), info() {}, debug() {}, verbose() {} }, api.DiagLogLevel.WARN);

  const detected = detectResources({ detectors: [envDetector] });
  const named = env.OTEL_SERVICE_NAME?.trim() || detected.attributes['service.name'] !== undefined;
  const resource = defaultResource()
    .merge(named ? null : resourceFromAttributes({ 'service.name': options.serviceName }))
    .merge(detected);
  const exporter =
    exporterKind === 'console'
      ? new ConsoleSpanExporter()
      : new (load('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp).OTLPTraceExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  // W3C traceparent / tracestate and baggage, AsyncLocalStorage for the active context.
  provider.register();

  const untraced = new Set(options.untracedPaths ?? []);
  const { FastifyOtelInstrumentation } = load('@fastify/otel') as typeof FastifyOtel;
  const { UndiciInstrumentation } = load('@opentelemetry/instrumentation-undici') as typeof Undici;
  const { PgInstrumentation } = load('@opentelemetry/instrumentation-pg') as typeof Pg;
  const { IORedisInstrumentation } = load('@opentelemetry/instrumentation-ioredis') as typeof Ioredis;
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new FastifyOtelInstrumentation({
        // Every Fastify instance created from now on gets the request span (the W3C context of
        // the caller continued) and a span for its handler; hooks are not spans of their own:
        // the few that matter open theirs (authentication, validation).
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: (route) => untraced.has(route.url.split('?', 1)[0]!),
        // The handler's span by the route it serves (its function is anonymous: fastify names it by the plugin chain).
        lifecycleHook(span, info) {
          if (info.hookName === 'handler' && span.isRecording()) span.updateName(`handler ${info.request.routeOptions?.url ?? ''}`.trim());
        },
        requestHook(span, request) {
          if (!span.isRecording()) return; // not sampled: nothing of it is exported
          span.updateName(`${request.method} ${request.routeOptions?.url ?? 'unmatched'}`);
          // The path without its query (@fastify/otel records the raw URL): a query may carry a token.
          span.setAttribute('url.path', request.url.split('?', 1)[0]!);
          if (options.requestAttributes) span.setAttributes(defined(options.requestAttributes(request)));
        },
      }),
      new UndiciInstrumentation({
        // Calls outside any request or run (none are expected) are not traces of their own.
        requireParentforSpans: true,
        // A URL's query may carry a vendor's credentials (WooCommerce's consumer key): never kept.
        startSpanHook: (request) => {
          const url = new URL(request.path, request.origin);
          return { 'url.full': `${url.origin}${url.pathname}`, 'url.query': url.search === '' ? '' : '?…' };
        },
      }),
      // Statements with their placeholders, never their values (enhancedDatabaseReporting stays off).
      new PgInstrumentation({ requireParentSpan: true }),
      // The command name only: keys hold vendors' transaction ids.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });

  const tracer = api.trace.getTracer('loyalty-gateway');
  const runtime: TracingRuntime = {
    inSpan(name, attributes, fn, parent) {
      const context = (parent as Api.Context | undefined) ?? api.context.active();
      // Inside a trace the sampler left out (90 % of requests at a ratio of 0.1), a child would not
      // be exported either: no span and no context switch, the function alone.
      const within = api.trace.getSpan(context)?.spanContext();
      if (within !== undefined && (within.traceFlags & api.TraceFlags.SAMPLED) === 0) return fn(NOOP);
      const span = tracer.startSpan(name, { attributes: defined(attributes) }, context);
      const handle: SpanHandle = { set: (more) => span.setAttributes(defined(more)) };
      const fail = (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: typeof code === 'string' ? code : ((error as Error)?.name ?? 'error') });
      };
      return api.context.with(api.trace.setSpan(context, span), () => {
        let result: unknown;
        try {
          result = fn(handle);
        } catch (error) {
          fail(error);
          span.end();
          throw error;
        }
        if (result !== null && typeof (result as Promise<unknown>)?.then === 'function')
          return (result as Promise<unknown>).then(
            (value) => {
              span.end();
              return value;
            },
            (error: unknown) => {
              fail(error);
              span.end();
              throw error;
            },
          ) as typeof result;
        span.end();
        return result;
      }) as ReturnType<typeof fn>;
    },
    ids(parent) {
      const span = api.trace.getSpan((parent as Api.Context | undefined) ?? api.context.active());
      const context = span?.spanContext();
      // Sampled, not "recording": a request's root span has ended by the time its journal entry and log line are written.
      return context && (context.traceFlags & api.TraceFlags.SAMPLED) !== 0
        ? { traceId: context.traceId, spanId: context.spanId }
        : undefined;
    },
    annotate(parent, attributes) {
      api.trace.getSpan(parent as Api.Context)?.setAttributes(defined(attributes));
    },
  };
  setTracingRuntime(runtime);
  return {
    useLogger(log) {
      sink = log;
    },
    async shutdown() {
      setTracingRuntime(undefined);
      unregister();
      await provider.shutdown();
    },
  };
}

const NOOP: SpanHandle = { set() {} };

/** Attributes without the undefined ones (the SDK warns about each). */
function defined(attributes: SpanAttributes): Api.Attributes {
  const out: Api.Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key];
  return out;
}
