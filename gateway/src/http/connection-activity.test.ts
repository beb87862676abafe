import { describe, expect, it } from 'vitest';
import { ConnectionActivity } from './connection-activity.js';

const MINUTE = 60 * 1000;

describe('ConnectionActivity', () => {
  it("keeps each connection's last answer and the last hour's requests, refusals (4xx) and failures (5xx)", () => {
    let now = Date.UTC(2026, 10, 28, 10, 0, 0);
    const activity = new ConnectionActivity(() => now);
    expect(activity.of('c1')).toBeNull();

    activity.record('c1', 200);
    activity.record('c1', 401);
    activity.record('c2', 200);
    now += 7 * MINUTE;
    activity.record('c1', 422);
    activity.record('c1', 500);
    now += 1 * MINUTE;
    expect(activity.of('c1')).toEqual({
      lastSeenAt: new Date(now - MINUTE),
      lastStatus: 500,
      lastHour: { requests: 4, refused: 2, failed: 1 },
    });
    expect(activity.of('c2')?.lastHour).toEqual({ requests: 1, refused: 0, failed: 0 });

    // An hour later the first two have left the window; the last answer is still known.
    now += 55 * MINUTE;
    expect(activity.of('c1')?.lastHour).toEqual({ requests: 2, refused: 1, failed: 1 });
    expect(activity.of('c2')?.lastHour).toEqual({ requests: 0, refused: 0, failed: 0 });
    now += 10 * MINUTE;
    expect(activity.of('c1')).toEqual({
      lastSeenAt: new Date(Date.UTC(2026, 10, 28, 10, 7, 0)),
      lastStatus: 500,
      lastHour: { requests: 0, refused: 0, failed: 0 },
    });

    // A slot reused twelve slots later starts from nothing.
    activity.record('c1', 200);
    expect(activity.of('c1')?.lastHour).toEqual({ requests: 1, refused: 0, failed: 0 });
  });

  it('counts a day of steady traffic within the hour only, whatever the slot boundaries', () => {
    let now = Date.UTC(2026, 10, 28, 0, 0, 30);
    const activity = new ConnectionActivity(() => now);
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      activity.record('c1', minute % 10 === 0 ? 503 : 200);
      now += MINUTE;
    }
    const { lastHour } = activity.of('c1')!;
    // 55 to 60 minutes of requests, one a minute, depending on where the hour's oldest slot starts.
    expect(lastHour.requests).toBeGreaterThanOrEqual(55);
    expect(lastHour.requests).toBeLessThanOrEqual(60);
    expect(lastHour.failed).toBeGreaterThanOrEqual(Math.floor(lastHour.requests / 10));
    expect(lastHour.failed).toBeLessThanOrEqual(Math.ceil(lastHour.requests / 10));
  });
});
