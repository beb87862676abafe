import { describe, expect, it } from 'vitest';
import { packBatch, unpackBatch, type CallMessage } from './worker-messages.js';

describe('a batch of calls crossing to the engine thread', () => {
  it('crosses as one JSON string and arrives as sent: odd text kept, absent optional fields absent', () => {
    const calls: CallMessage[] = [
      {
        id: 1,
        method: 'earn',
        argument: {
          merchantId: 'm-1',
          transaction: {
            id: 'T\u0000-\ud800-é-😀',
            totalMinor: 1250,
            channel: undefined,
            items: [{ id: 'p1', name: 'Latte "coffee"\n', sku: undefined, quantity: 2, unitPriceMinor: 450 }],
          },
        },
        options: { deadline: 1_700_000_000_000 },
      },
      { id: 2, method: 'ping', argument: undefined },
    ];
    const packed = packBatch(calls);
    expect(typeof packed).toBe('string');
    const arrived = unpackBatch(packed);
    // What JSON drops is what an optional field's absence means to the engine (as over its HTTP transport).
    expect(arrived).toEqual(calls);
    const transaction = (arrived[0]!.argument as { transaction: { id: string; items: object[] } }).transaction;
    expect(transaction.id).toBe('T\u0000-\ud800-é-😀');
    expect('sku' in transaction.items[0]!).toBe(false);
  });

  it('falls back to the array itself (structured clone) when JSON cannot carry a value', () => {
    const calls: CallMessage[] = [{ id: 3, method: 'applySeed', argument: { big: 10n } }];
    const packed = packBatch(calls);
    expect(packed).toBe(calls);
    expect(unpackBatch(packed)).toBe(calls);
  });
});
