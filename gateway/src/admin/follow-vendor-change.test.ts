import { describe, expect, it } from 'vitest';
import { followVendorChange } from './follow-vendor-change.js';
import { openOperatorApp } from '../testing/open-operator-app.js';

const recorder = () => {
  const warnings: unknown[][] = [];
  return { warnings, log: { warn: (...args: unknown[]) => void warnings.push(args) } };
};

describe('followVendorChange', () => {
  it('waits for a follower that finishes, and says nothing', async () => {
    const { warnings, log } = recorder();
    let ran = false;
    await followVendorChange(async () => void (ran = true), log, 1_000);
    expect(ran).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('answers after waitMs when the follower hangs, with a warning (the admin write is never left unanswered)', async () => {
    const { warnings, log } = recorder();
    const started = Date.now();
    await followVendorChange(() => new Promise<void>(() => undefined), log, 50);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(warnings).toEqual([[{ waitMs: 50 }, expect.stringContaining('still applying it')]]);
  });

  it('a failing follower is logged, not thrown: the write is already stored', async () => {
    const { warnings, log } = recorder();
    await expect(
      followVendorChange(
        async () => {
          throw new Error('CA bundle unreadable');
        },
        log,
        1_000,
      ),
    ).resolves.toBeUndefined();
    expect(warnings).toEqual([[{ err: expect.objectContaining({ message: 'CA bundle unreadable' }) }, expect.stringContaining('failed')]]);
  });
});

describe('admin writes with a follower that hangs', () => {
  it('PUT settings and promote answer after the wait, and the change is stored', async () => {
    const t = await openOperatorApp({ onVendorChanged: () => new Promise<void>(() => undefined), vendorChangeWaitMs: 50 });
    try {
      const put = await t.admin('PUT', '/admin/vendors/clover/settings', { authCode: 'rotated-auth-code' });
      expect(put.statusCode).toBe(200);
      expect((await t.store.getVendor('clover'))?.settings).toMatchObject({ authCode: 'rotated-auth-code' });
      const promoted = await t.admin('POST', '/admin/vendors/clover/promote');
      expect(promoted.json()).toMatchObject({ vendor: { slug: 'clover', tier: 'featured' } });
      expect(t.logs.join('\n')).toContain('still applying it');
    } finally {
      await t.close();
    }
  });
});
