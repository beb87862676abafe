import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../service/env-schema.js';
import { inSpan, traceIds, traceLogFields, tracingOn } from './spans.js';
import { startTracing } from './start-tracing.js';
import { tracesExporterOf } from './tracing-wanted.js';

describe('tracing is off unless the standard OTEL_* variables ask for it', () => {
  it('reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, OTEL_TRACES_EXPORTER and OTEL_SDK_DISABLED', () => {
    expect(tracesExporterOf({})).toBeUndefined();
    expect(tracesExporterOf({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(tracesExporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('otlp');
    expect(tracesExporterOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe('otlp');
    expect(tracesExporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined();
    expect(tracesExporterOf({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe('otlp');
    expect(tracesExporterOf({ OTEL_TRACES_EXPORTER: 'console' })).toBe('console');
    expect(tracesExporterOf({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeUndefined();
    expect(tracesExporterOf({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeUndefined();
    expect(tracesExporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('otlp');
  });

  it('refuses, naming the variable, what it cannot honour', () => {
    expect(() => tracesExporterOf({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(ConfigError);
    expect(() => tracesExporterOf({ OTEL_TRACES_EXPORTER: 'otlp,console' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => tracesExporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL=grpc/,
    );
  });

  it('off: loads nothing of the SDK, and spans are the function alone', async () => {
    expect(await startTracing({}, { serviceName: 'test' })).toBeUndefined();
    expect(tracingOn()).toBe(false);
    expect(inSpan('x', {}, (span) => (span.set({ a: 1 }), 42))).toBe(42);
    expect(traceIds()).toBeUndefined();
    expect(traceLogFields()).toEqual({});
    const cache = Object.keys(createRequire(import.meta.url).cache);
    expect(cache.filter((file) => /@opentelemetry[\\/](sdk-|exporter-|instrumentation)|@fastify[\\/]otel/.test(file))).toEqual([]);
  });
});
