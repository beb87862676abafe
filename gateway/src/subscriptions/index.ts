export {
  createSubscriptionManager,
  type SubscriptionManager,
  type SubscriptionManagerOptions,
  type SubscriptionOutcome,
} from './subscription-manager.js';
