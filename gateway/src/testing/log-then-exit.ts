/**
 * A child process for logger-options.test.ts: logs LINES request lines through the gateway's
 * default (asynchronous) destination, then ends at once, the way EXIT says: `exit` calls
 * process.exit(3), `throw` throws an uncaught error. Every line must still reach stdout.
 */
import { createGatewayLogging } from '../http/logger-options.js';

const { requestLine } = createGatewayLogging('info');
const lines = Number(process.env.LINES ?? 1000);
for (let n = 0; n < lines; n += 1) requestLine.info({ n, url: '/webhooks/generic', padding: 'x'.repeat(200) }, 'request completed');
if (process.env.EXIT === 'throw') throw new Error('crashed after logging');
process.exit(3);
