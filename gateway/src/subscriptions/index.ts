export {
  createSubscriptionManager,
  type SubscriptionManager,
  type SubscriptionManagerOptions,
  type SubscriptionOutcome,
} from './subscription-manager.js';
export {
  deliveredTwice,
  subscriptionDuplicates,
  VENDOR_ANSWER_WAIT_MS,
  type JournalledDelivery,
  type SubscriptionDuplicate,
} from './subscription-duplicates.js';
