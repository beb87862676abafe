import { describe, expect, it } from 'vitest';
import { ClockSkewTracker, type ConnectionSkew } from './clock-skew.js';

const connection = { id: 'c-1', vendor: 'acme-pos', storeId: 'store-001' };

describe('ClockSkewTracker', () => {
  it('keeps the latest and a smoothed skew; one odd request does not flag a connection', () => {
    let now = 1_800_000_000_000;
    const warned: ConnectionSkew[] = [];
    const tracker = new ClockSkewTracker(
      (s) => warned.push(s),
      () => now,
    );
    for (let i = 0; i < 5; i += 1) tracker.record(connection, now / 1000 + 10);
    tracker.record(connection, now / 1000 + 250); // one request from a till far off
    const skew = tracker.of('c-1')!;
    expect(skew.latestSeconds).toBe(250);
    expect(skew.smoothedSeconds).toBe(58); // 10 + 0.2 × 240
    expect(skew.flagged).toBe(false);
    expect(warned).toEqual([]);
    now += 1;
    expect(tracker.of('nobody')).toBeNull();
  });

  it('a drifting till is flagged past 120 s and warned about once per hour', () => {
    let now = 1_800_000_000_000;
    const warned: ConnectionSkew[] = [];
    const tracker = new ClockSkewTracker(
      (s) => warned.push(s),
      () => now,
    );
    for (let i = 0; i < 30; i += 1) tracker.record(connection, now / 1000 - 150);
    expect(tracker.of('c-1')).toMatchObject({ smoothedSeconds: -150, flagged: true, vendor: 'acme-pos', store: 'store-001' });
    expect(warned).toHaveLength(1);
    now += 59 * 60 * 1000;
    tracker.record(connection, now / 1000 - 150);
    expect(warned).toHaveLength(1);
    now += 2 * 60 * 1000;
    tracker.record(connection, now / 1000 - 150);
    expect(warned).toHaveLength(2);
  });

  it('recent() holds the connections seen within the last hour only', () => {
    let now = 1_800_000_000_000;
    const tracker = new ClockSkewTracker(undefined, () => now);
    tracker.record(connection, now / 1000);
    tracker.record({ id: 'c-2', vendor: 'acme-pos', storeId: 'store-002' }, now / 1000 + 5);
    now += 61 * 60 * 1000;
    tracker.record({ id: 'c-2', vendor: 'acme-pos', storeId: 'store-002' }, now / 1000 + 5);
    expect(tracker.recent().map((s) => s.connectionId)).toEqual(['c-2']);
  });
});
