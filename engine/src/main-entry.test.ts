import { describe, expect, it } from 'vitest';
import * as engine from './index.js';
import * as testing from './testing/index.js';

describe('the engine package entries', () => {
  it('the main entry exports no test helper: they live behind @loyalty-gateway/engine/testing', () => {
    for (const name of Object.keys(testing)) expect(Object.keys(engine), name).not.toContain(name);
    expect(Object.keys(testing).sort()).toEqual([
      'ANN',
      'BOB',
      'IDS',
      'SCOPE',
      'SlowStatements',
      'balanceOf',
      'ledgerSum',
      'line',
      'openSeededEngine',
      'sale',
      'testSeed',
      'uniqueId',
    ]);
  });

  it("the main entry holds no database plumbing: that is @loyalty-gateway/storage's", () => {
    for (const name of [
      'createDatabase',
      'migrate',
      'ensureSchema',
      'isUniqueViolation',
      'isConnectionLoss',
      'preparedQuery',
      'testDialects',
      'openTestDatabase',
    ]) {
      expect(Object.keys(engine), name).not.toContain(name);
    }
  });
});
