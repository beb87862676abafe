import { describe } from 'vitest';
import { catalogContract } from './catalog-contract.js';
import { concurrencyContract } from './concurrency-contract.js';
import { useContractEngine, type OpenContractEngine } from './contract-harness.js';
import { deadlineContract } from './deadline-contract.js';
import { earnContract } from './earn-contract.js';
import { eligibilityContract } from './eligibility-contract.js';
import { outletContract } from './outlet-contract.js';
import { previewContract } from './preview-contract.js';
import { raiseContract } from './raise-contract.js';
import { redeemContract } from './redeem-contract.js';
import { refundBeforeSaleContract } from './refund-before-sale-contract.js';
import { refundCurrencyContract } from './refund-currency-contract.js';
import { reverseContract } from './reverse-contract.js';
import { saleConflictContract } from './sale-conflict-contract.js';
import { withdrawContract } from './withdraw-contract.js';

/**
 * The LoyaltyEngine port's contract: one suite of behaviours, exercised through the port only,
 * that every implementation (embedded, HTTP client → engine service) must pass on every dialect.
 * `open` gives a fresh, empty engine per test; the suite seeds it with `testSeed()`.
 */
export function describeEngineContract(label: string, open: OpenContractEngine): void {
  describe(`LoyaltyEngine contract: ${label}`, () => {
    const context = useContractEngine(open);
    earnContract(context);
    saleConflictContract(context);
    reverseContract(context);
    refundBeforeSaleContract(context);
    refundCurrencyContract(context);
    withdrawContract(context);
    raiseContract(context);
    previewContract(context);
    eligibilityContract(context);
    redeemContract(context);
    catalogContract(context);
    outletContract(context);
    concurrencyContract(context);
    deadlineContract(context);
  });
}
