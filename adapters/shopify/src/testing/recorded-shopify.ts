import { startRecordedVendorServer, type RecordedReply } from '@loyalty-gateway/core/testing';

/**
 * core's recorded vendor server playing a shop's Admin API: every request takes the next scripted
 * answer, whatever its path; once the script is spent it answers 500. `baseUrl` includes the API path.
 */
export async function startRecordedShopify(script: RecordedReply[], apiVersion = '2026-07') {
  const server = await startRecordedVendorServer({
    key: () => 'admin-api',
    notFound: { status: 500, body: '{"errors":"script exhausted"}' },
  });
  server.script('admin-api', ...script);
  return { ...server, apiBaseUrl: `${server.baseUrl}/admin/api/${apiVersion}` };
}
