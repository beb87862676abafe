#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signedHeaders } from '@loyalty-gateway/core';
import { ADMIN_USAGE } from './admin/admin-usage.js';
import { formatCertification, runCertification } from './certify/run-certification.js';
import { outputWidth } from './admin/render-table.js';
import { runAdminCommand } from './admin/run-admin-command.js';
import { sampleSale } from './sample-sale.js';
import { sendSigned } from './send-signed.js';
import { sendNative } from './send-native.js';
import { fetchDeliveryLog, formatDeliveryLog } from './vendor-deliveries.js';
import { adapters } from '@loyalty-gateway/gateway/adapters';

const USAGE = `loyalty-gateway <command> [flags]      (npx loyalty-gateway <command> …; in the repository also npm run cli -- <command> …)

Commands
  send-sample  --url URL --vendor SLUG --store ID --secret S [--customer type:value] [--total 12.50]
               POST a signed sample sale to URL/webhooks/generic and print the answer
  send         --url URL --vendor SLUG --store ID --secret S --file body.json [--path /webhooks/generic]
               POST the file's exact bytes, signed, to URL+path; with --path /webhooks/<adapter> the
               bytes are signed as that vendor signs them (--header 'Name: value' adds its headers)
  sign         --vendor SLUG --store ID --secret S --file body.json
               print the four X-Service-* headers for the file's bytes (as curl -H flags)
  certify      --url URL --vendor SLUG --store ID --secret S [--customer type:value]
               run the generic tier's certification checks against a gateway (UAT): signing,
               clock, the earn preview, idempotency, refunds, validation; exit 0 when every check passes
  deliveries   --url URL --vendor SLUG --store ID --secret S [--status 422] [--transaction T]
               [--since ISO] [--until ISO] [--limit N] [--cursor C] [--wide] [--json]
               the store's own delivery log (GET /v1/deliveries, signed): what the gateway received
               from it and how it answered, newest first
  admin        operator commands against the gateway's /admin API (see below)

${ADMIN_USAGE}`;

type Flags = Record<string, string | undefined>;

function required(flags: Flags, ...names: string[]): string[] {
  const missing = names.filter((name) => !flags[name]);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
  return names.map((name) => flags[name]!);
}

class UsageError extends Error {}

function parseCustomer(value: string | undefined) {
  if (!value) return undefined;
  const [type, ...rest] = value.split(':');
  if (!['phone', 'email', 'membershipId', 'externalId'].includes(type ?? '') || rest.length === 0) {
    throw new UsageError('--customer must be type:value, e.g. membershipId:MBR-0001');
  }
  return { type: type as 'phone', value: rest.join(':') };
}

/** Each command's own usage (`loyalty-gateway <command> --help`). */
const COMMAND_HELP: Record<string, string> = {
  'send-sample': `loyalty-gateway send-sample --url URL --vendor SLUG --store ID --secret S [--customer type:value] [--total 12.50]
  POST a signed sample sale to URL/webhooks/generic and print the answer. --url defaults to $GATEWAY_URL.`,
  send: `loyalty-gateway send --url URL --vendor SLUG --store ID --secret S --file body.json [--path /webhooks/generic]
  POST the file's exact bytes, signed, to URL+path and print the answer. --url defaults to $GATEWAY_URL.
loyalty-gateway send --url URL --path /webhooks/<adapter> --secret S --file native.json [--header 'Name: value' ...]
  A featured vendor's own payload, signed with that adapter's scheme and the secret it reads (the app
  secret, or the connection's), with the vendor's headers (its store header, topic): a smoke test of
  the featured door, e.g. --path /webhooks/woocommerce --header 'X-WC-Webhook-Source: https://shop.example.com/'
  --header 'X-WC-Webhook-Topic: order.updated'.`,
  sign: `loyalty-gateway sign --vendor SLUG --store ID --secret S --file body.json
  Print the four X-Service-* headers for the file's bytes, as curl -H flags.`,
  certify: `loyalty-gateway certify --url URL --vendor SLUG --store ID --secret S [--customer type:value]
  Run the generic tier's certification checks against a gateway (UAT): signing, clock, the earn
  preview (it commits nothing, and the sale then earns what it said), idempotency, refunds,
  validation. One PASS/FAIL line each; exit 0 only when every check passes. A refused secret stops
  the run after the connection test. --url defaults to $GATEWAY_URL.`,
  deliveries: `loyalty-gateway deliveries --url URL --vendor SLUG --store ID --secret S [--status 422] [--transaction T]
                           [--since ISO] [--until ISO] [--limit N] [--cursor C] [--wide] [--json]
  The store's own delivery log: every request the gateway received from this connection (sales,
  refunds, previews, checkout calls, refusals), newest first, with the request id, the event and
  transaction, the points, and the answer with its reason (a warning, each field a 422 named).
  GET /v1/deliveries, signed with the store's secret over the timestamp and the empty body; it
  never shows another store's. --limit up to 100 (default 20); --cursor goes on to older ones.
  --url defaults to $GATEWAY_URL.`,
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'admin') {
    return runAdminCommand(rest, {
      env: process.env,
      out: (text) => console.log(text),
      err: (text) => console.error(text),
      width: outputWidth(process.stdout),
    });
  }
  if (command && COMMAND_HELP[command] && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(COMMAND_HELP[command]);
    return 0;
  }
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        url: { type: 'string' },
        vendor: { type: 'string' },
        store: { type: 'string' },
        secret: { type: 'string' },
        file: { type: 'string' },
        path: { type: 'string' },
        customer: { type: 'string' },
        total: { type: 'string' },
        header: { type: 'string', multiple: true },
        status: { type: 'string' },
        transaction: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        wide: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    // node:util's wording ("Unknown option '--x'. To specify a positional argument…") in plain words.
    const what = /'([^']+)'/.exec((error as Error).message)?.[1];
    throw new UsageError(what ? `${command}: ${what} is not an option of this command` : `${command}: ${(error as Error).message}`);
  }
  const headerFlags = (values.header as string[] | undefined) ?? [];
  const flags = {
    ...values,
    header: undefined,
    wide: undefined,
    json: undefined,
    url: (values.url as string | undefined) ?? process.env.GATEWAY_URL,
  } as Flags;
  switch (command) {
    case 'send-sample': {
      const [url, vendor, store, secret] = required(flags, 'url', 'vendor', 'store', 'secret');
      const sale = sampleSale({
        storeId: store!,
        customer: parseCustomer(flags.customer),
        total: flags.total ? Number(flags.total) : undefined,
      });
      const result = await sendSigned({
        url: `${url!.replace(/\/$/, '')}/webhooks/generic`,
        vendor: vendor!,
        store: store!,
        secret: secret!,
        body: JSON.stringify(sale),
      });
      console.log(`HTTP ${result.status} (request ${result.requestId ?? '-'}) for transaction ${sale.transaction.id}`);
      console.log(JSON.stringify(result.body, null, 2));
      return result.status === 200 ? 0 : 1;
    }
    case 'send': {
      const slug = /^\/webhooks\/([a-z0-9-]+)$/.exec(flags.path ?? '')?.[1];
      const adapter = slug && slug !== 'generic' ? adapters.find((a) => a.slug === slug) : undefined;
      if (slug && slug !== 'generic' && !adapter)
        throw new UsageError(
          `send: no adapter "${slug}" in this CLI (${adapters.map((a) => a.slug).join(', ')}); generic vendors use --path /webhooks/generic`,
        );
      if (adapter) {
        const [url, secret, file] = required(flags, 'url', 'secret', 'file');
        const headers = Object.fromEntries(
          headerFlags.map((h) => {
            const at = h.indexOf(':');
            if (at <= 0) throw new UsageError(`send: --header must be 'Name: value' (got "${h}")`);
            return [h.slice(0, at).trim(), h.slice(at + 1).trim()];
          }),
        );
        const result = await sendNative({
          url: `${url!.replace(/\/$/, '')}${flags.path}`,
          adapter,
          secret: secret!,
          body: readFileSync(file!),
          headers,
        });
        console.log(`HTTP ${result.status} (request ${result.requestId ?? '-'})`);
        console.log(JSON.stringify(result.body, null, 2));
        return result.status >= 200 && result.status < 300 ? 0 : 1;
      }
      const [url, vendor, store, secret, file] = required(flags, 'url', 'vendor', 'store', 'secret', 'file');
      const target = `${url!.replace(/\/$/, '')}${flags.path ?? '/webhooks/generic'}`;
      const result = await sendSigned({ url: target, vendor: vendor!, store: store!, secret: secret!, body: readFileSync(file!) });
      console.log(`HTTP ${result.status} (request ${result.requestId ?? '-'})`);
      console.log(JSON.stringify(result.body, null, 2));
      return result.status === 200 ? 0 : 1;
    }
    case 'certify': {
      const [url, vendor, store, secret] = required(flags, 'url', 'vendor', 'store', 'secret');
      const results = await runCertification({
        url: url!,
        vendor: vendor!,
        store: store!,
        secret: secret!,
        customer: parseCustomer(flags.customer),
      });
      console.log(formatCertification(results));
      return results.every((r) => r.ok) ? 0 : 1;
    }
    case 'deliveries': {
      const [url, vendor, store, secret] = required(flags, 'url', 'vendor', 'store', 'secret');
      const result = await fetchDeliveryLog({
        url: url!,
        vendor: vendor!,
        store: store!,
        secret: secret!,
        query: {
          status: flags.status,
          transactionId: flags.transaction,
          since: flags.since,
          until: flags.until,
          limit: flags.limit,
          cursor: flags.cursor,
        },
      });
      if (result.status !== 200) {
        console.error(`HTTP ${result.status} (request ${result.requestId ?? '-'})`);
        console.error(JSON.stringify(result.body, null, 2));
        return 1;
      }
      const page = result.body as Parameters<typeof formatDeliveryLog>[0];
      console.log(
        values.json === true
          ? JSON.stringify(page, null, 2)
          : formatDeliveryLog(page, { width: outputWidth(process.stdout), wide: values.wide === true }),
      );
      return 0;
    }
    case 'sign': {
      const [vendor, store, secret, file] = required(flags, 'vendor', 'store', 'secret', 'file');
      const headers = signedHeaders({ vendor: vendor!, store: store!, secret: secret!, body: readFileSync(file!) });
      console.log(
        Object.entries(headers)
          .map(([k, v]) => `-H '${k}: ${v.replace(/'/g, `'\\''`)}'`)
          .join(' '),
      );
      return 0;
    }
    default:
      console.log(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const [command] = process.argv.slice(2);
    const help = command && COMMAND_HELP[command] ? COMMAND_HELP[command] : USAGE;
    console.error(error instanceof UsageError ? `${error.message}\n\n${help}` : ((error as Error).message ?? error));
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
