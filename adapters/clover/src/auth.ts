import type { AuthSchemeInput, NativeRequest, UnreadableUnit, WebhookUnit } from '@loyalty-gateway/core';
import { CloverUpdate, type CloverWebhookBody } from './native.js';

/**
 * Clover signs nothing: every notification carries `X-Clover-Auth: <auth code>`, a static token
 * shown in the Developer Dashboard once the webhook URL is verified (one per Clover app, so it
 * lives in provider settings as `authCode`, a string or a list during rotation). Compared in
 * constant time by core's static-header scheme.
 */
export const cloverAuth: AuthSchemeInput = {
  kind: 'static-header',
  header: 'X-Clover-Auth',
  secret: { from: 'settings', key: 'authCode' },
};

/** One notification about one object of one merchant. */
export interface CloverUnit {
  merchantId: string;
  objectId: string;
  type: string;
  ts: number;
}

type CloverUnitOrUnreadable = WebhookUnit<CloverUnit> | UnreadableUnit;

function updateUnit(merchantId: string, raw: unknown, index: number): CloverUnitOrUnreadable {
  const parsed = CloverUpdate.safeParse(raw);
  if (parsed.success) {
    const { objectId, type, ts } = parsed.data;
    return { storeId: merchantId, unit: { merchantId, objectId, type, ts } };
  }
  const [issue] = parsed.error.issues;
  const where = issue?.path.length ? issue.path.join('.') : 'the update';
  return { storeId: merchantId, unreadable: `update ${index}: ${where} ${issue?.message ?? 'is not an update object'}` };
}

/**
 * The store is the Clover merchant id: the keys of `merchants`. One POST may carry several
 * merchants and several objects each; every object becomes its own unit. An object that is not a
 * readable update (or a merchant whose updates are not a list) is reported unreadable and skipped
 * by the gateway, so the rest of the batch still counts.
 */
export function cloverUnits(body: CloverWebhookBody): CloverUnitOrUnreadable[] {
  return Object.entries(body.merchants ?? {}).flatMap(([merchantId, updates]): CloverUnitOrUnreadable[] =>
    Array.isArray(updates)
      ? updates.map((raw, index) => updateUnit(merchantId, raw, index))
      : [{ storeId: merchantId, unreadable: 'its updates are not a list' }],
  );
}

/**
 * The one-time setup call: when the webhook URL is saved, Clover posts
 * `{"verificationCode": "<uuid>"}` for the operator to paste back into the dashboard. It comes
 * before any auth code exists, so it carries no X-Clover-Auth: the gateway must detect it before
 * authenticating. It only ever yields a note shown to the operator, never an envelope.
 */
export function cloverHandshake(body: CloverWebhookBody, _request?: NativeRequest): { note: string; value: string } | null {
  const code = body.verificationCode?.trim();
  if (!code || body.merchants) return null;
  return {
    note: 'Clover webhook verification code: paste it into the Clover Developer Dashboard (App Settings > Webhooks) and click Verify',
    value: code,
  };
}
