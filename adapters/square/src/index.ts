import { defineAdapter } from '@loyalty-gateway/core';
import { squareAuth, squareHandshake, squareUnits } from './auth.js';
import { CATALOG_SCHEDULE, pullCatalog } from './catalog.js';
import { mapSquareUnit } from './map-unit.js';
import { SquareEvent } from './native.js';
import { RECONCILE_SCHEDULE, pullPayments } from './reconcile.js';
import { SquareCredentials, SquareSettings } from './config.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" role="img" aria-label="Square">' +
  '<rect x="2" y="2" width="44" height="44" rx="9" fill="#000"/>' +
  '<rect x="11" y="11" width="26" height="26" rx="4" fill="#fff"/>' +
  '<rect x="18" y="18" width="12" height="12" rx="1.5" fill="#000"/></svg>';

export const adapter = defineAdapter({
  slug: 'square',
  display: {
    name: 'Square',
    description:
      'Square Point of Sale and Square Online: an order earns once it is paid in full; completed refunds and lost disputes reverse; the item library is pulled nightly.',
    category: 'pos',
    logoSvg,
  },
  setup: {
    storeIdLabel: 'Square location ID',
    steps: [
      {
        title: 'Find your location ID',
        body: 'In the Square Dashboard open Account & Settings → Business → Locations and copy the location ID (for example L88917AVBK2S5). Enter it as your {{storeIdLabel}}.',
      },
      {
        title: 'Authorise read access',
        body: 'Connect your Square account so we receive an access token with ORDERS_READ, CUSTOMERS_READ, PAYMENTS_READ, ITEMS_READ and DISPUTES_READ. Paid orders are read back from the Orders API, disputed payments from the Payments API; your item library is read nightly.',
      },
      {
        title: 'Events are delivered to',
        body: 'Subscribe {{webhookUrl}} to payment.created, payment.updated, refund.created, refund.updated, order.updated, dispute.created and dispute.state.updated. An order earns once it is paid in full (an invoice deposit earns nothing until the balance is paid); COMPLETED refunds and LOST or ACCEPTED disputes reverse.',
      },
      {
        title: 'Test it',
        body: 'Take a card or cash payment of at least 1.00 at this location with a customer attached (or an email receipt). The sale appears in your loyalty activity within a minute.',
      },
    ],
  },
  settings: SquareSettings,
  credentials: SquareCredentials,
  auth: squareAuth,
  body: 'json',
  native: SquareEvent,
  // Square signs its test notification like any event: authenticated first.
  handshake: { auth: 'signed', detect: squareHandshake },
  // An OPEN order can be updated after a payment and paid in full again; a sale is emitted only when paid in full.
  paidOrdersGrow: true,
  units: squareUnits,
  map: (event, ctx) => mapSquareUnit(event, ctx),
  catalog: { schedule: CATALOG_SCHEDULE, pull: pullCatalog },
  reconcile: { schedule: RECONCILE_SCHEDULE, pull: pullPayments },
});
