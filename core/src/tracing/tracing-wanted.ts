import { ConfigError } from '../service/env-schema.js';

/** The exporters a gateway or engine process can send spans with (OTEL_TRACES_EXPORTER). */
const EXPORTERS = ['otlp', 'console', 'none'] as const;
export type TracesExporter = (typeof EXPORTERS)[number];

const set = (env: Record<string, string | undefined>, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Whether tracing is on, from the standard OpenTelemetry variables only: off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT (or its _TRACES_ form) or OTEL_TRACES_EXPORTER is set, and never
 * with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Decided from the environment alone,
 * before anything of OpenTelemetry is loaded: a process that does not trace never loads it.
 * Returns the exporter to use, or undefined when off; a value we cannot honour stops the start
 * naming the variable, like every other setting.
 */
export function tracesExporterOf(env: Record<string, string | undefined>): Exclude<TracesExporter, 'none'> | undefined {
  if (set(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const named = set(env, 'OTEL_TRACES_EXPORTER');
  const endpoint = set(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const protocol = set(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? set(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  let exporter: TracesExporter | undefined;
  if (named !== undefined) {
    // A list is allowed by the specification; one exporter is what a process here sends to.
    const names = named.split(',').map((name) => name.trim());
    const unknown = names.find((name) => !(EXPORTERS as readonly string[]).includes(name));
    if (unknown !== undefined || names.length !== 1)
      throw new ConfigError(`Invalid configuration: OTEL_TRACES_EXPORTER must be one of ${EXPORTERS.join(', ')} (got "${named}")`);
    exporter = names[0] as TracesExporter;
  } else if (endpoint !== undefined) exporter = 'otlp';
  if (exporter === undefined || exporter === 'none') return undefined;
  // The exporter sends OTLP/HTTP with JSON bodies; a collector's HTTP receiver (4318) takes those
  // as well as protobuf, but gRPC is another port and protocol altogether.
  if (exporter === 'otlp' && protocol !== undefined && protocol.startsWith('grpc'))
    throw new ConfigError(
      'Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported; use http/json (the OTLP/HTTP endpoint, port 4318 by default)',
    );
  return exporter;
}
