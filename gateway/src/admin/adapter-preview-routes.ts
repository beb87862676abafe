import { AdapterPreviewRequest, GatewayError, WEBHOOK_FETCH_BACK, type AdapterPreview } from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { previewAdapterPayload } from '../featured/preview-adapter-payload.js';
import { webhookFetchClient } from '../featured/webhook-fetch-policy.js';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { slugParam } from './read-admin-body.js';
import { readJsonBody } from '../webhooks/read-envelope.js';

/**
 * What a registered adapter makes of a native payload now (previewAdapterPayload): the admin API
 * and the console's "try a payload" form both answer through it. 404 adapter_not_found for a slug
 * with no adapter in this build.
 */
export async function previewAdapter(
  deps: Pick<AdminDeps, 'adapterOf' | 'store' | 'previewPipeline' | 'outbound' | 'publicUrl' | 'now'>,
  slug: string,
  request: AdapterPreviewRequest,
  log: FastifyBaseLogger,
): Promise<AdapterPreview> {
  const adapter = deps.adapterOf(slug);
  if (!adapter) throw new GatewayError('adapter_not_found', { message: `This gateway has no featured adapter "${slug}" to preview.` });
  if (!deps.previewPipeline) throw new GatewayError('not_found', { message: 'Adapter previews are not available on this gateway.' });
  const body = request.body ?? JSON.stringify(request.payload);
  return previewAdapterPayload(
    {
      adapter,
      store: deps.store,
      pipeline: deps.previewPipeline,
      fetchClient: () => webhookFetchClient(WEBHOOK_FETCH_BACK, deps.outbound),
      clock: () => deps.now().getTime(),
      publicUrl: deps.publicUrl,
      log,
    },
    { body: Buffer.from(body, 'utf8'), headers: request.headers ?? {}, store: request.store, fetchBack: request.fetchBack === true },
  );
}

/**
 * POST /admin/adapters/{slug}/preview: a native payload (and the headers the vendor would send)
 * through the adapter's door without its authentication, answered with the canonical envelopes,
 * the adapter's notes and each event's earn preview; nothing committed, nothing journalled.
 */
export function registerAdapterPreviewRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.post('/adapters/:slug/preview', ADMIN_ROUTE, async (request) => {
    const slug = (() => {
      try {
        return slugParam(request.params);
      } catch {
        throw new GatewayError('adapter_not_found'); // a slug that cannot exist has no adapter
      }
    })();
    return previewAdapter(deps, slug, readJsonBody(AdapterPreviewRequest, request.body), request.log);
  });
}
