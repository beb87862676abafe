export {
  createDeliveryJournal,
  type Delivery,
  type DeliveryFilter,
  type DeliveryInput,
  type DeliveryJournal,
  type DeliveryJournalOptions,
} from './delivery-journal.js';
export { chooseByRequestId, provedConnection, type RequestIdMatch } from './choose-by-request-id.js';
export { featuredSlugOf, registerJournalHook } from './journal-hook.js';
export { createReplayTickets, REPLAY_HEADER, type ReplayTicket, type ReplayTickets } from './replay-tickets.js';
export { noteFailure, type FailureCause } from './failure-cause.js';
export { traceEngineFailures } from './trace-engine-failures.js';
export { startLedgerCheckpoints } from './journal-writer.js';
