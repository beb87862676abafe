import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestId } from '../http/request-id.js';
import type { DeliveryInput, DeliveryJournal } from './delivery-journal.js';
import { registerJournalHook } from './journal-hook.js';
import { requestIdTime } from './journal-ids.js';

describe("the journal hook's received time", () => {
  it("is a generated request id's millisecond (its entry is found by it), and the answer's time less the request's duration for a caller's id", async () => {
    // The clock moves 5 s between a request's arrival (its id generated) and its answer (the hook).
    let now = 1_764_400_000_000;
    const clock = () => now;
    const app = Fastify({ genReqId: (request) => requestId(request, clock) });
    const recorded: DeliveryInput[] = [];
    // Only record is called (journal-hand-off.ts).
    const journal = { record: (input: DeliveryInput) => void recorded.push(input) } as unknown as DeliveryJournal;
    registerJournalHook(app, journal, clock);
    app.post('/webhooks/generic', async () => {
      now += 5_000;
      return { ok: true };
    });
    try {
      expect((await app.inject({ method: 'POST', url: '/webhooks/generic', payload: {} })).statusCode).toBe(200);
      const given = { 'x-request-id': 'till-7.42' };
      expect((await app.inject({ method: 'POST', url: '/webhooks/generic', headers: given, payload: {} })).statusCode).toBe(200);
      const [generated, caller] = recorded;
      expect(requestIdTime(generated!.requestId)).toBe(1_764_400_000_000);
      expect(generated!.receivedAt.getTime()).toBe(1_764_400_000_000);
      // A caller's id carries no time: the answer's time (10 s on) less how long the request took.
      expect(caller!.requestId).toBe('till-7.42');
      expect(1_764_400_010_000 - caller!.receivedAt.getTime()).toBeGreaterThanOrEqual(0);
      expect(1_764_400_010_000 - caller!.receivedAt.getTime()).toBeLessThan(1_000);
    } finally {
      await app.close();
    }
  });
});
