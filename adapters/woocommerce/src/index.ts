import { defineAdapter } from '@loyalty-gateway/core';
import { z } from 'zod';
import { auth } from './auth.js';
import { pull } from './catalog.js';
import { toEnvelopes } from './map.js';
import { WoocommerceEvent } from './native.js';

const secret = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const adapter = defineAdapter({
  slug: 'woocommerce',
  display: {
    name: 'WooCommerce',
    description: 'Earn loyalty on every WooCommerce sale; refunds reverse it automatically.',
    category: 'ecommerce',
    website: 'https://example.com',
    logoSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="8" fill="#0b5cad"/><text x="24" y="31" font-size="20" text-anchor="middle" fill="#fff">W</text></svg>',
  },
  setup: {
    storeIdLabel: 'WooCommerce store id',
    steps: [
      { title: 'Create the connection', body: 'Ask your loyalty operator to create a connection for your {{storeIdLabel}} and enter the API access token.' },
      { title: 'Add the webhook in WooCommerce', body: 'In WooCommerce, add a webhook for order events pointing at {{webhookUrl}}.' },
    ],
    credentials: [{ key: 'accessToken', label: 'API access token', help: 'WooCommerce → Settings → API tokens.', secret: true }],
    provider: [{ key: 'webhookSecret', label: 'Webhook signing secret', help: 'Shown by WooCommerce when the webhook is created.', secret: true }],
  },
  settings: z.object({ webhookSecret: secret, apiBaseUrl: z.string().url().default('https://api.example.com') }),
  credentials: z.object({ accessToken: z.string().min(1) }),
  auth,
  native: WoocommerceEvent,
  // What the vendor expects on success. This is the gateway's default, spelled out: change it if
  // WooCommerce wants something else (e.g. a plain-text 200 "OK": { status: 200, body: 'OK' }).
  response: { accepted: (outcome) => ({ status: 200, body: { ...outcome } }) },
  units: (event) => [{ storeId: event.store_id, unit: event }],
  map: (event) => toEnvelopes(event),
  catalog: { schedule: '40 3 * * *', pull },
});
