/**
 * Test-only entry (`@loyalty-gateway/engine/contract`): imports vitest, so production code never
 * imports it. The port contract suite and its harness; the fixture it seeds with is
 * `@loyalty-gateway/engine/testing`'s.
 */
export { describeEngineContract } from './describe-engine-contract.js';
export { expectEngineError, type ContractContext, type ContractEngine, type OpenContractEngine } from './contract-harness.js';
