import { defineAdapter } from '@loyalty-gateway/core';
import { cloverAuth, cloverHandshake, cloverUnits } from './auth.js';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { RECONCILE_SCHEDULE, pullOrders } from './reconcile.js';
import { CloverCredentials, CloverSettings } from './config.js';
import { cloverDisplay, cloverSetup } from './manifest.js';
import { mapCloverUnit } from './map-unit.js';
import { CloverWebhookBody } from './native.js';

export const adapter = defineAdapter({
  slug: 'clover',
  display: cloverDisplay,
  setup: cloverSetup,
  settings: CloverSettings,
  credentials: CloverCredentials,
  auth: cloverAuth,
  body: 'json',
  native: CloverWebhookBody,
  // Clover posts the verificationCode before the auth code exists: recognised before authentication.
  handshake: { auth: 'unsigned', detect: (body) => cloverHandshake(body) },
  units: (body) => cloverUnits(body),
  map: (unit, ctx) => mapCloverUnit(unit, ctx),
  catalog: { schedule: CATALOG_SCHEDULE, pull: pullCatalog },
  reconcile: { schedule: RECONCILE_SCHEDULE, pull: pullOrders },
});
