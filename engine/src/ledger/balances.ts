/**
 * The `reward_id` of a member's points wallet in `balances` (migration 0008); each of the member's
 * stamp cards is keyed by its reward's id, which is never empty. Every statement on the wallet
 * names it, so it never reads or moves a card.
 */
export const WALLET = '';
