/**
 * Test-only entry (`@loyalty-gateway/engine/contract`): imports vitest, so production code never
 * imports it. The port contract suite plus the fixture it seeds with.
 */
export { describeEngineContract } from './describe-engine-contract.js';
export { expectEngineError, type ContractContext, type ContractEngine, type OpenContractEngine } from './contract-harness.js';
export { ANN, BOB, IDS, SCOPE, line, sale, testSeed, uniqueId } from '../testing/fixture.js';
export { SlowStatements } from '../testing/slow-statements.js';
