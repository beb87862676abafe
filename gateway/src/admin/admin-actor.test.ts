import { createHash } from 'node:crypto';
import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyOf, headersFor } from '../testing/gateway-fixture.js';
import { sale } from '../testing/test-seed.js';
import { ADMIN_TOKEN, openOperatorApp, type OperatorApp } from '../testing/open-operator-app.js';

describe.each(testDialects())('who an audited admin action names ($name)', ({ name }) => {
  let t: OperatorApp;
  const fault = { down: false };
  beforeEach(async () => {
    fault.down = false;
    t = await openOperatorApp({ dialect: name, journal: true, engineFault: fault });
  });
  afterEach(() => t.close());

  it('replayedBy is admin: + 12 hex digits of the SHA-256 of the token, whatever the header spelled around it', async () => {
    fault.down = true;
    const raw = bodyOf(sale({ id: 'R-1' }));
    const failed = await t.app.inject({ method: 'POST', url: '/webhooks/generic', headers: headersFor(raw), payload: raw });
    expect(failed.statusCode).toBe(500);
    await t.journal!.flush();
    fault.down = false;
    const replay = await t.app.inject({
      method: 'POST',
      url: `/admin/deliveries/${failed.headers['x-request-id'] as string}/replay`,
      headers: { authorization: `bearer   ${ADMIN_TOKEN} ` },
    });
    expect(replay.statusCode).toBe(200);
    const expected = `admin:${createHash('sha256').update(ADMIN_TOKEN).digest('hex').slice(0, 12)}`;
    expect(replay.json()).toMatchObject({ replay: { replayedBy: expected } });
  });
});
