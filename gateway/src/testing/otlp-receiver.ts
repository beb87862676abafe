import { createServer, type Server } from 'node:http';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}
/** A received span, decoded: its service and attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
}

const valueOf = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
const attributesOf = (list: Array<{ key: string; value: OtlpValue }> = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** An OTLP/HTTP receiver: POST /v1/traces with the JSON encoding (what the exporter sends), decoded into spans. */
export async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; contentTypes: Set<string>; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.add(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans) {
        const service = String(attributesOf(resourceSpans.resource.attributes)['service.name']);
        for (const scopeSpans of resourceSpans.scopeSpans)
          for (const span of scopeSpans.spans)
            spans.push({
              service,
              scope: scopeSpans.scope.name,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, contentTypes, server };
}
