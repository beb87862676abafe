import type { CredentialField, SetupStep } from '@loyalty-gateway/core';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" role="img" aria-label="Clover"><circle cx="11" cy="11" r="6" fill="#1c8a3b"/><circle cx="21" cy="11" r="6" fill="#1c8a3b"/><circle cx="11" cy="21" r="6" fill="#1c8a3b"/><circle cx="21" cy="21" r="6" fill="#1c8a3b"/></svg>';

export const cloverDisplay = {
  name: 'Clover',
  description: 'Clover point of sale: paid orders earn points and stamps, refunds reverse them.',
  category: 'pos' as const,
  logoSvg,
  website: 'https://www.clover.com',
};

const steps: SetupStep[] = [
  {
    title: 'Install the app and connect the merchant',
    body: 'Install our Clover app on the merchant, then enter the Clover merchant id ({{storeIdLabel}}) and the OAuth access token here.',
  },
  {
    title: 'Webhook URL (operator, once per Clover app)',
    body: 'In the Clover Developer Dashboard, App Settings > Webhooks, enter {{webhookUrl}} and click Send Verification Code (the gateway answers it even before Clover is promoted). Read the code with npm run cli -- admin vendors notes clover (or in the gateway log), paste it and click Verify.',
  },
  {
    title: 'Subscribe and store the auth code',
    body: 'Subscribe to Orders. Copy the Clover Auth Code shown after verification into the provider setting authCode (npm run cli -- admin vendors settings clover …), then promote Clover (npm run cli -- admin vendors promote clover).',
  },
  {
    title: 'Test',
    body: 'Take a paid order on the Clover register for a known member: points appear once, however many times Clover notifies.',
  },
];

const credentials: CredentialField[] = [
  { key: 'accessToken', label: 'OAuth access token', help: 'Token of our Clover app for this merchant (orders read, inventory read, customers read).', secret: true },
];

const provider: CredentialField[] = [
  { key: 'authCode', label: 'Clover Auth Code', help: 'Sent by Clover as X-Clover-Auth on every notification; a list during rotation.', secret: true },
  { key: 'apiBaseUrl', label: 'API base URL', help: 'https://api.clover.com (default), https://api.eu.clover.com, or the sandbox.', secret: false },
];

export const cloverSetup = { storeIdLabel: 'Clover merchant id', steps, credentials, provider };
