import { testDialects } from '@loyalty-gateway/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogRunStore } from '../../src/stores/catalog-run-store.js';
import { deleteRuns, finishedRunsBefore } from '../../src/stores/run-history.js';
import type { CatalogRunStore, VendorNoteStore } from '../../src/stores/gateway-store-types.js';
import { openTestStore, type TestStore } from '../../src/testing/open-test-store.js';
import { StoreInputError } from '../../src/stores/store-errors.js';
import { createVendorNoteStore } from '../../src/stores/vendor-note-store.js';

describe.each(testDialects())('operator stores (migration 0002) on $name', ({ name }) => {
  let t: TestStore;
  let notes: VendorNoteStore;
  let runs: CatalogRunStore;
  beforeEach(async () => {
    t = await openTestStore(name);
    notes = await createVendorNoteStore({ database: t.database, clock: t.clock.now });
    runs = await createCatalogRunStore({ database: t.database, clock: t.clock.now });
  });
  afterEach(() => t.close());

  it('records vendor notes and lists them newest first, per vendor or all', async () => {
    await notes.recordVendorNote('clover', { kind: 'clover.verificationCode', value: 'abc-123', note: 'paste into the Clover dashboard' });
    t.clock.advance(1_000);
    await notes.recordVendorNote('square', { kind: 'square.testNotification', value: 'evt-1' });
    t.clock.advance(1_000);
    await notes.recordVendorNote('clover', { kind: 'clover.verificationCode', value: 'def-456' });
    expect((await notes.listVendorNotes('clover')).map((n) => n.value)).toEqual(['def-456', 'abc-123']);
    expect((await notes.listVendorNotes()).map((n) => n.vendor)).toEqual(['clover', 'square', 'clover']);
    const [square] = await notes.listVendorNotes('square');
    expect(square).toMatchObject({ kind: 'square.testNotification', note: null, createdAt: new Date('2025-01-01T00:00:01Z') });
    await expect(notes.recordVendorNote('Bad Slug', { kind: 'k', value: 'v' })).rejects.toBeInstanceOf(StoreInputError);
  });

  it('notes are bounded: the same (kind, value) again moves to the top, and each vendor keeps only its newest', async () => {
    const capped = await createVendorNoteStore({ database: t.database, clock: t.clock.now, keepPerVendor: 3 });
    for (const value of ['v1', 'v2', 'v3', 'v4', 'v5']) {
      await capped.recordVendorNote('clover', { kind: 'clover.handshake', value, note: 'x'.repeat(1000) });
      t.clock.advance(1_000);
    }
    await capped.recordVendorNote('square', { kind: 'square.handshake', value: 'kept' });
    expect((await capped.listVendorNotes('clover')).map((n) => n.value)).toEqual(['v5', 'v4', 'v3']);
    t.clock.advance(1_000);
    const again = await capped.recordVendorNote('clover', { kind: 'clover.handshake', value: 'v3', note: 'again' });
    expect(again).toMatchObject({ value: 'v3', note: 'again', createdAt: new Date(t.clock.now()) });
    expect((await capped.listVendorNotes('clover')).map((n) => [n.value, n.note?.length])).toEqual([
      ['v3', 5],
      ['v5', 1000],
      ['v4', 1000],
    ]);
    expect((await capped.listVendorNotes('square')).map((n) => n.value)).toEqual(['kept']);
  });

  it('claims a schedule slot once: the second claimant (another process) sees the unique key', async () => {
    const other = await createCatalogRunStore({ database: t.database, clock: t.clock.now });
    const slot = '2025-01-01T00:00:00.000Z';
    const [a, b] = await Promise.all([
      runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'schedule', slot }),
      other.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'schedule', slot }),
    ]);
    expect([a.claimed, b.claimed].sort()).toEqual([false, true]);
    const lost = a.claimed ? b : a;
    expect(lost).toMatchObject({ claimed: false, reason: 'slot_taken' });
    expect((await runs.list({ connectionId: 'c1' })).length).toBe(1);
    // Another connection's slot is its own.
    expect((await other.claim({ vendor: 'clover', connectionId: 'c2', trigger: 'schedule', slot })).claimed).toBe(true);
  });

  it('refuses a second run for a connection while one is running, then allows it once finished', async () => {
    const first = await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual' });
    if (!first.claimed) throw new Error('expected a claim');
    const second = await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual' });
    expect(second).toMatchObject({ claimed: false, reason: 'in_progress', existing: { id: first.run.id } });
    await runs.progress(first.run.id, { pages: 2, items: 30, attempts: 3 });
    t.clock.advance(2_000);
    const done = await runs.finish(first.run.id, { status: 'succeeded', created: 28, updated: 2, deactivated: 1 });
    expect(done).toMatchObject({
      status: 'succeeded',
      pages: 2,
      items: 30,
      created: 28,
      updated: 2,
      deactivated: 1,
      attempts: 3,
      error: null,
    });
    expect(done.finishedAt!.getTime() - done.startedAt.getTime()).toBe(2_000);
    expect((await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'manual' })).claimed).toBe(true);
  });

  it('takes over a running row abandoned for over an hour, marking it failed', async () => {
    const first = await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'schedule', slot: 's1' });
    if (!first.claimed) throw new Error('expected a claim');
    t.clock.advance(30 * 60_000);
    expect(await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'schedule', slot: 's2' })).toMatchObject({
      reason: 'in_progress',
    });
    t.clock.advance(31 * 60_000);
    const next = await runs.claim({ vendor: 'clover', connectionId: 'c1', trigger: 'schedule', slot: 's3' });
    expect(next.claimed).toBe(true);
    expect(await runs.get(first.run.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^abandoned/) });
    // The abandoned process finishing late does not overwrite the verdict.
    expect(await runs.finish(first.run.id, { status: 'succeeded' })).toMatchObject({ status: 'failed' });
  });

  it('pruning deletes finished runs started before the cutoff, never one still running, in chunks', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const finished = async (connectionId: string, status: 'succeeded' | 'failed') => {
      const claim = await runs.claim({ vendor: 'clover', connectionId, trigger: 'manual' });
      if (!claim.claimed) throw new Error('not claimed');
      await runs.finish(claim.run.id, { status });
      t.clock.advance(60_000);
      return claim.run.id;
    };
    for (let i = 0; i < 5; i += 1) await finished(`old-${i}`, i % 2 === 0 ? 'succeeded' : 'failed');
    const stillRunning = await runs.claim({ vendor: 'clover', connectionId: 'stuck', trigger: 'manual' });
    if (!stillRunning.claimed) throw new Error('not claimed');
    t.clock.advance(95 * DAY);
    const recent = await finished('old-0', 'succeeded');
    const cutoff = new Date(t.clock.now().getTime() - 90 * DAY);

    // A pruning told to stop ends after the statement under way (a stopping process does not wait for a long history).
    const stop = new AbortController();
    const aborted = deleteRuns(t.database.db, 'gw_catalog_runs', finishedRunsBefore(t.database.db, 'gw_catalog_runs', cutoff), {
      chunk: 1,
      signal: stop.signal,
    });
    stop.abort();
    expect(await aborted).toBe(1);
    // Two at a time: two statements for the four left.
    expect(
      await deleteRuns(t.database.db, 'gw_catalog_runs', finishedRunsBefore(t.database.db, 'gw_catalog_runs', cutoff), { chunk: 2 }),
    ).toBe(4);
    expect((await runs.list()).map((r) => r.id).sort()).toEqual([recent, stillRunning.run.id].sort());
    expect(await runs.prune(cutoff)).toBe(0);
    // The stuck run, once a claim retires it as abandoned, goes with the next pruning.
    const retry = await runs.claim({ vendor: 'clover', connectionId: 'stuck', trigger: 'manual' });
    expect(retry.claimed).toBe(true);
    expect(await runs.get(stillRunning.run.id)).toMatchObject({ status: 'failed' });
    expect(await runs.prune(cutoff)).toBe(1);
    expect(await runs.get(stillRunning.run.id)).toBeNull();
  });

  it('lists runs newest first, filtered by vendor and connection', async () => {
    for (const [vendor, connectionId] of [
      ['clover', 'c1'],
      ['square', 's1'],
      ['clover', 'c2'],
    ] as const) {
      const claim = await runs.claim({ vendor, connectionId, trigger: 'manual' });
      if (claim.claimed) await runs.finish(claim.run.id, { status: 'failed', error: 'boom' });
      t.clock.advance(1_000);
    }
    expect((await runs.list()).map((r) => r.connectionId)).toEqual(['c2', 's1', 'c1']);
    expect((await runs.list({ vendor: 'clover' })).map((r) => r.connectionId)).toEqual(['c2', 'c1']);
    expect((await runs.list({ vendor: 'clover', connectionId: 'c1' }))[0]).toMatchObject({
      status: 'failed',
      error: 'boom',
      trigger: 'manual',
    });
  });
});
