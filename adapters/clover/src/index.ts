import { defineAdapter } from '@loyalty-gateway/core';
import { cloverAuth, cloverHandshake, cloverUnits } from './auth.js';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { RECONCILE_REVISIT_DAYS, RECONCILE_SCHEDULE, pullOrders } from './reconcile.js';
import { CloverCredentials, CloverSettings } from './config.js';
import { mapCloverUnit } from './map-unit.js';
import { CloverWebhookBody } from './native.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" role="img" aria-label="Clover"><circle cx="11" cy="11" r="6" fill="#1c8a3b"/><circle cx="21" cy="11" r="6" fill="#1c8a3b"/><circle cx="11" cy="21" r="6" fill="#1c8a3b"/><circle cx="21" cy="21" r="6" fill="#1c8a3b"/></svg>';

export const adapter = defineAdapter({
  slug: 'clover',
  display: {
    name: 'Clover',
    description: 'Clover point of sale: paid orders earn points and stamps; refunds, manual refunds and voids reverse them.',
    category: 'pos',
    logoSvg,
  },
  setup: {
    storeIdLabel: 'Clover merchant id',
    steps: [
      {
        title: 'Install the app and connect the merchant',
        body: 'Install our Clover app on the merchant, then enter the {{storeIdLabel}} and the OAuth access token here.',
      },
      {
        title: 'Webhook URL (operator, once per Clover app)',
        body: 'In the Clover Developer Dashboard, App Settings > Webhooks, enter {{webhookUrl}} and click Send Verification Code (the gateway answers it even before Clover is promoted). Read the code with npm run cli -- admin vendors notes clover (or in the gateway log), paste it and click Verify.',
      },
      {
        title: 'Subscribe and store the auth code',
        body: 'Subscribe to Orders and Payments (a void or refund may be notified as either). Copy the Clover Auth Code shown after verification into the provider setting authCode (npm run cli -- admin vendors settings clover …), then promote Clover (npm run cli -- admin vendors promote clover).',
      },
      {
        title: 'Test',
        body: 'Take a paid order on the Clover register for a known member: points appear once, however many times Clover notifies.',
      },
    ],
  },
  settings: CloverSettings,
  credentials: CloverCredentials,
  auth: cloverAuth,
  body: 'json',
  native: CloverWebhookBody,
  // Clover posts the verificationCode before the auth code exists: recognised before authentication.
  handshake: { auth: 'unsigned', detect: (body) => cloverHandshake(body) },
  // A paid order can be edited and paid in full again; a sale is emitted only while the payments cover the total.
  paidOrdersGrow: true,
  units: (body) => cloverUnits(body),
  map: (unit, ctx) => mapCloverUnit(unit, ctx),
  catalog: { schedule: CATALOG_SCHEDULE, pull: pullCatalog },
  reconcile: { schedule: RECONCILE_SCHEDULE, revisitDays: RECONCILE_REVISIT_DAYS, pull: pullOrders },
});
