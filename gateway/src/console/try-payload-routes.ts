import { BODY_LIMIT } from '../http/body-limit.js';
import { GatewayError } from '@loyalty-gateway/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { previewAdapter } from '../admin/adapter-preview-routes.js';
import { SlugParams } from '../admin/admin-schemas.js';
import type { AdminDeps } from '../admin/admin-types.js';
import type { ConsoleMessage } from './console-html.js';
import type { ConsoleKit } from './console-kit.js';
import { renderTryPayload, type TryPayloadForm } from './try-payload-page.js';

/**
 * The form carries a payload as large as a webhook's body, percent-encoded (up to three characters
 * a byte): this route's own limit, above the console's 16 KiB for its other forms.
 */
const ROUTE = { config: { rateLimit: false as const }, bodyLimit: 3 * BODY_LIMIT + 64 * 1024 };

const textOf = (body: unknown, name: string): string | undefined => {
  const value = body && typeof body === 'object' && !Buffer.isBuffer(body) ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** `Name: value` lines → headers; a line without a colon is named back (nothing is sent). */
function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const at = line.indexOf(':');
    if (at <= 0)
      throw new GatewayError('validation_failed', {
        message: `Each header line is "Name: value"; this one is not: ${line.trim().slice(0, 100)}`,
        fields: [{ path: 'headers', message: 'each line must be Name: value' }],
      });
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

/**
 * The vendor page's "try a payload" form (GET and POST /console/vendors/:slug/try): a native payload
 * previewed through the admin API's own function (previewAdapter), so a refusal is the admin API's
 * and nothing is ever committed.
 */
export function registerTryPayloadRoutes(scope: FastifyInstance, deps: AdminDeps, kit: ConsoleKit): void {
  const adapterOf = (params: unknown) => {
    const parsed = SlugParams.safeParse(params);
    const adapter = parsed.success ? deps.adapterOf(parsed.data.slug) : undefined;
    if (!adapter) throw new GatewayError('adapter_not_found');
    return adapter;
  };
  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { message?: ConsoleMessage | null; typed?: TryPayloadForm; preview?: Awaited<ReturnType<typeof previewAdapter>> },
  ) => {
    const adapter = adapterOf(request.params);
    const stores = (await deps.store.listConnections())
      .filter((c) => c.vendor === adapter.slug)
      .map((c) => ({ storeId: c.storeId, active: c.active }));
    return kit.send(reply, status, renderTryPayload({ session: kit.current(request), adapter, stores, ...extra }));
  };

  scope.get('/vendors/:slug/try', ROUTE, async (request, reply) =>
    answer(request, reply, 200, { message: kit.takeFlash(kit.current(request)) }),
  );

  scope.post('/vendors/:slug/try', ROUTE, async (request, reply) => {
    const typed: TryPayloadForm = {
      payload: textOf(request.body, 'payload'),
      headers: textOf(request.body, 'headers'),
      store: textOf(request.body, 'store') || undefined,
      fetchBack: textOf(request.body, 'fetchBack') === '1',
    };
    try {
      const adapter = adapterOf(request.params);
      const preview = await previewAdapter(
        deps,
        adapter.slug,
        { body: typed.payload ?? '', headers: headersOf(typed.headers ?? ''), store: typed.store, fetchBack: typed.fetchBack },
        request.log,
      );
      return await answer(request, reply, 200, { typed, preview });
    } catch (error) {
      const { status, text } = kit.failureOf(error, request);
      return answer(request, reply, status, { typed, message: { kind: 'error', text } });
    }
  });
}
