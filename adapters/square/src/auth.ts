import type { AuthSchemeInput, WebhookUnit } from '@loyalty-gateway/core';
import type { SquareEvent } from './native.js';

/**
 * Square signs every notification: `x-square-hmacsha256-signature` =
 * base64(HMAC-SHA256(signature key, notification URL + raw body)). The key lives in the provider
 * settings (`signatureKey`, one per webhook subscription, a list during rotation). The URL is the
 * one registered in the subscription: the gateway sets `NativeRequest.url` to the settings'
 * `notificationUrl`. The legacy SHA-1 `x-square-signature` header is ignored.
 */
export const squareAuth = {
  kind: 'hmac',
  header: 'x-square-hmacsha256-signature',
  algorithm: 'sha256',
  encoding: 'base64',
  signed: 'url+body',
  secret: { from: 'settings', key: 'signatureKey' },
} satisfies AuthSchemeInput;

/** Square's dashboard / API "test notification": no store, nothing to map. */
export const TEST_NOTIFICATION_TYPE = 'webhooks.test_notification';

/**
 * The Square location the event concerns: `data.object.<payment|refund|...>.location_id`.
 * The object is keyed by its type (`payment`, `refund`, `order_updated`, ...), so every value is
 * checked rather than one hard-coded path.
 */
export function locationOf(event: SquareEvent): string | null {
  const object = event.data?.object;
  if (!object) return null;
  for (const value of Object.values(object)) {
    if (value && typeof value === 'object' && 'location_id' in value) {
      const location = (value as { location_id?: unknown }).location_id;
      if (typeof location === 'string' && location !== '') return location;
    }
  }
  return null;
}

/**
 * One unit per notification, routed to the connection whose store id is the Square location id.
 * An event that names no location (merchant-wide objects such as customers) concerns no store:
 * no unit, nothing to do (README, "Events without a location (the SDK gap)").
 */
export function squareUnits(event: SquareEvent): WebhookUnit<SquareEvent>[] {
  const location = locationOf(event);
  return location ? [{ storeId: location, unit: event }] : [];
}

/** The test notification is answered 200 and shown to the operator as proof the URL and key work. */
export function squareHandshake(event: SquareEvent): { note: string; value: string } | null {
  if (event.type !== TEST_NOTIFICATION_TYPE) return null;
  return { note: `Square test notification received for merchant ${event.merchant_id ?? 'unknown'}`, value: event.event_id };
}
