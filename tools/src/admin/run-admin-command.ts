import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AdminCallError, createAdminClient, type AdminClient } from './admin-client.js';
import { ADMIN_USAGE } from './admin-usage.js';
import { formatAdapterPreview, type AdapterPreviewAnswer } from './adapter-preview-view.js';
import { formatAnswer } from './format-answer.js';
import { DELIVERIES_VIEWS } from './deliveries-views.js';
import { LIST_VIEWS } from './list-views.js';
import { DEFAULT_WIDTH } from './render-table.js';
import { nextStep } from './next-step.js';

export interface AdminIo {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
  /** Poll interval of `catalog pull --wait`. */
  pollMs?: number;
  /** Columns the output may take: the terminal's (render-table.ts's outputWidth), else 120. */
  width?: number;
}

export class AdminUsageError extends Error {}

type Flags = Record<string, string | string[] | boolean | undefined>;

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  file: { type: 'string' },
  vendor: { type: 'string' },
  store: { type: 'string' },
  merchant: { type: 'string' },
  outlet: { type: 'string' },
  'credentials-file': { type: 'string' },
  'overlap-seconds': { type: 'string' },
  connection: { type: 'string' },
  name: { type: 'string' },
  id: { type: 'string' },
  currency: { type: 'string' },
  'country-code': { type: 'string' },
  'earn-rate': { type: 'string' },
  'redemption-rate': { type: 'string' },
  wait: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  wide: { type: 'boolean' },
  status: { type: 'string' },
  code: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  transaction: { type: 'string' },
  'request-id': { type: 'string' },
  force: { type: 'boolean' },
  'nothing-earned': { type: 'boolean' },
  reason: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  header: { type: 'string', multiple: true },
  'fetch-back': { type: 'boolean' },
} as const;

const need = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new AdminUsageError(`missing --${name}`);
  return value;
};
const arg = (positionals: string[], what: string): string => {
  const value = positionals[0];
  if (!value) throw new AdminUsageError(`missing ${what}`);
  return value;
};
const readJsonFile = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AdminUsageError(`cannot read JSON from ${file}: ${(error as Error).message}`);
  }
};
const readTextFile = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AdminUsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
};
const query = (pairs: Record<string, unknown>) => {
  const entries = Object.entries(pairs).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
};
const seg = encodeURIComponent;

async function dispatch(
  client: AdminClient,
  group: string,
  action: string,
  positionals: string[],
  flags: Flags,
  io: AdminIo,
): Promise<unknown> {
  switch (`${group} ${action}`) {
    case 'vendors list':
      return client.call('GET', '/admin/vendors');
    case 'merchants list':
      return client.call('GET', '/admin/merchants');
    case 'merchants create':
      return client.call('POST', '/admin/merchants', {
        id: arg(positionals, 'ID'),
        name: need(flags, 'name'),
        currency: need(flags, 'currency'),
        defaultCountryCode: need(flags, 'country-code'),
        earnRate: Number(need(flags, 'earn-rate')),
        redemptionRate: Number(need(flags, 'redemption-rate')),
      });
    case 'merchants add-outlet':
      return client.call('POST', `/admin/merchants/${seg(arg(positionals, 'MERCHANT_ID'))}/outlets`, {
        id: need(flags, 'id'),
        name: need(flags, 'name'),
      });
    case 'vendors create':
      return client.call('POST', '/admin/vendors', { slug: arg(positionals, 'SLUG'), name: need(flags, 'name') });
    case 'vendors rename':
      return client.call('PATCH', `/admin/vendors/${seg(arg(positionals, 'SLUG'))}`, { name: need(flags, 'name') });
    case 'vendors promote':
      return client.call('POST', `/admin/vendors/${seg(arg(positionals, 'SLUG'))}/promote`);
    case 'vendors demote':
      return client.call('POST', `/admin/vendors/${seg(arg(positionals, 'SLUG'))}/demote`);
    case 'vendors settings':
      return client.call('PUT', `/admin/vendors/${seg(arg(positionals, 'SLUG'))}/settings`, readJsonFile(need(flags, 'file')));
    case 'vendors notes':
      return client.call('GET', `/admin/vendors/${seg(arg(positionals, 'SLUG'))}/notes`);
    case 'adapters preview': {
      // The file's exact text (a native payload need not be JSON), the vendor's headers, the store to map it for.
      const headers = Object.fromEntries(
        ((flags.header as string[] | undefined) ?? []).map((h) => {
          const at = h.indexOf(':');
          if (at <= 0) throw new AdminUsageError(`--header must be 'Name: value' (got "${h}")`);
          return [h.slice(0, at).trim(), h.slice(at + 1).trim()];
        }),
      );
      return client.call('POST', `/admin/adapters/${seg(arg(positionals, 'SLUG'))}/preview`, {
        body: readTextFile(need(flags, 'file')),
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(typeof flags.store === 'string' ? { store: flags.store } : {}),
        ...(flags['fetch-back'] === true ? { fetchBack: true } : {}),
      });
    }
    case 'connections list':
      return client.call('GET', `/admin/connections${query({ vendor: flags.vendor, merchantId: flags.merchant })}`);
    case 'connections create': {
      const credentials = typeof flags['credentials-file'] === 'string' ? readJsonFile(flags['credentials-file']) : undefined;
      return client.call('POST', '/admin/connections', {
        vendor: need(flags, 'vendor'),
        storeId: need(flags, 'store'),
        merchantId: need(flags, 'merchant'),
        outletId: need(flags, 'outlet'),
        ...(credentials === undefined ? {} : { credentials }),
      });
    }
    case 'connections rotate': {
      const overlap = flags['overlap-seconds'];
      if (overlap !== undefined && !/^\d+$/.test(String(overlap)))
        throw new AdminUsageError('--overlap-seconds must be a whole number of seconds');
      return client.call(
        'POST',
        `/admin/connections/${seg(arg(positionals, 'ID'))}/rotate`,
        overlap === undefined ? {} : { overlapSeconds: Number(overlap) },
      );
    }
    case 'connections deactivate':
      return client.call('POST', `/admin/connections/${seg(arg(positionals, 'ID'))}/deactivate`);
    case 'connections activate':
      return client.call('POST', `/admin/connections/${seg(arg(positionals, 'ID'))}/activate`);
    case 'connections credentials':
      return client.call('PUT', `/admin/connections/${seg(arg(positionals, 'ID'))}/credentials`, readJsonFile(need(flags, 'file')));
    case 'connections subscriptions': {
      // `connections subscriptions ID` lists; `connections subscriptions ensure ID` creates what is missing and repairs what points elsewhere.
      if (positionals[0] === 'ensure')
        return client.call('POST', `/admin/connections/${seg(arg(positionals.slice(1), 'ID'))}/subscriptions`);
      return client.call('GET', `/admin/connections/${seg(arg(positionals, 'ID'))}/subscriptions`);
    }
    case 'deliveries list':
      return client.call(
        'GET',
        `/admin/deliveries${query({
          vendor: flags.vendor,
          store: flags.store,
          status: flags.status,
          code: flags.code,
          since: flags.since,
          until: flags.until,
          transactionId: flags.transaction,
          requestId: flags['request-id'],
          // Processed sales that earned nothing: any, or the one --reason names (the gateway checks it).
          nothingEarned: typeof flags.reason === 'string' ? flags.reason : flags['nothing-earned'] ? 'any' : undefined,
          limit: flags.limit,
          cursor: flags.cursor,
          connectionId: flags.connection,
        })}`,
      );
    case 'deliveries show':
      return client.call('GET', `/admin/deliveries/${seg(arg(positionals, 'ID'))}`);
    case 'deliveries replay':
      // --force: past a revoked secret or a deactivated connection (the gateway journals it as forced).
      return client.call('POST', `/admin/deliveries/${seg(arg(positionals, 'ID'))}/replay`, flags.force ? { force: true } : undefined);
    case 'catalog runs':
      return client.call('GET', `/admin/catalog-runs${query({ vendor: flags.vendor, connectionId: flags.connection })}`);
    case 'catalog pull': {
      const connectionId = need(flags, 'connection');
      const started = (await client.call('POST', '/admin/catalog-runs', { vendor: need(flags, 'vendor'), connectionId })) as {
        run: { id: string; status: string };
      };
      if (!flags.wait) return started;
      return waitForRun(client, connectionId, started.run.id, io.pollMs ?? 1_000);
    }
    case 'reconcile runs':
      return client.call('GET', `/admin/reconcile-runs${query({ vendor: flags.vendor, connectionId: flags.connection })}`);
    case 'reconcile run': {
      const answer = (await client.call('POST', `/admin/connections/${seg(arg(positionals, 'ID'))}/reconcile`)) as {
        run: { status: string; error?: string | null };
      };
      if (answer.run.status === 'failed')
        throw new AdminCallError(`reconciliation run failed: ${answer.run.error ?? 'unknown error'}`, 200, answer);
      return answer;
    }
    default:
      throw new AdminUsageError(`unknown admin command "${group} ${action}"`);
  }
}

async function waitForRun(client: AdminClient, connectionId: string, runId: string, pollMs: number): Promise<unknown> {
  for (;;) {
    const { runs } = (await client.call('GET', `/admin/catalog-runs${query({ connectionId })}`)) as {
      runs: Array<{ id: string; status: string }>;
    };
    const run = runs.find((r) => r.id === runId);
    if (run && run.status !== 'running') {
      if (run.status === 'failed')
        throw new AdminCallError(`catalog pull failed: ${(run as { error?: string }).error ?? 'unknown error'}`, 200, { run });
      return { run };
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** `loyalty-gateway admin ...`: 0 on success, 1 when the gateway refused, 2 on a usage error. */
export async function runAdminCommand(argv: string[], io: AdminIo): Promise<number> {
  let context = { group: '', action: '', positionals: [] as string[] };
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const flags = values as Flags;
    const [group, action, ...rest] = positionals;
    context = { group: group ?? '', action: action ?? '', positionals: rest };
    if (flags.help === true || !group || !action || group === 'help') {
      io.out(ADMIN_USAGE);
      return flags.help === true || group === undefined || group === 'help' ? 0 : 2;
    }
    const token = (typeof flags.token === 'string' ? flags.token : undefined) ?? io.env.GATEWAY_ADMIN_TOKEN;
    if (!token) throw new AdminUsageError('no admin token: set GATEWAY_ADMIN_TOKEN or pass --token');
    const client = createAdminClient({
      url: typeof flags.url === 'string' ? flags.url : io.env.GATEWAY_URL || 'http://127.0.0.1:3000',
      token,
    });
    const answer = await dispatch(client, group, action, rest, flags, io);
    const layout = {
      width: io.width ?? DEFAULT_WIDTH,
      wide: flags.wide === true,
      views: LIST_VIEWS[`${group} ${action}`] ?? DELIVERIES_VIEWS[`${group} ${action}`],
    };
    io.out(
      flags.json === true
        ? JSON.stringify(answer, null, 2)
        : `${group} ${action}` === 'adapters preview'
          ? formatAdapterPreview(answer as AdapterPreviewAnswer, layout)
          : formatAnswer(answer, layout),
    );
    return 0;
  } catch (error) {
    if (error instanceof AdminCallError) {
      const code = (error.body as { code?: string } | null)?.code;
      // Each field the message does not already name, on its own line.
      const fields = ((error.body as { fields?: Array<{ path: string; message: string }> } | null)?.fields ?? []).filter(
        (f) => !error.message.includes(`${f.path} ${f.message}`),
      );
      const hint =
        error.status === 0
          ? 'Is the gateway running? Start it with npm start, or point the CLI at it with --url or GATEWAY_URL.'
          : nextStep(code, context);
      io.err([`error: ${error.message}`, ...fields.map((f) => `  ${f.path}: ${f.message}`), ...(hint ? [hint] : [])].join('\n'));
      return 1;
    }
    if (error instanceof AdminUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${ADMIN_USAGE}`);
      return 2;
    }
    throw error;
  }
}
