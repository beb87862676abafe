import { describe, expect, it } from 'vitest';
import { paidState } from './paid-in-full.js';
import { SquareOrder, SquarePayment } from './native.js';
import { fixtures, tender } from './testing/index.js';

// Square's documented OPEN order (RetrieveOrder example: total 550, no tenders) and PayOrder answer
// (COMPLETED, total 2000, two CAPTURED card tenders of 1000).
const open = SquareOrder.parse(fixtures.json<{ order: unknown }>('retrieve-order-response-open.json').order);
const split = SquareOrder.parse(fixtures.json<{ order: unknown }>('pay-order-response-split-tender.json').order);
const payment = (id: string, amount: number, status = 'COMPLETED') =>
  SquarePayment.parse({ id, status, order_id: open.id, total_money: { amount, currency: 'USD' } });
const withTenders = (...tenders: unknown[]) => SquareOrder.parse({ ...open, tenders });
const notPaid = (received: string, total: string) => ({
  paid: false,
  note: `Square order ${open.id}: ${received} of ${total} USD received; earns when paid in full`,
});

describe('paid in full (the only time a Square order earns)', () => {
  it('a COMPLETED order is paid ("Completed orders are fully paid"), whatever its tenders say', () => {
    expect(paidState(split, null, 2000, 'USD')).toEqual({ paid: true });
    expect(paidState({ ...open, state: 'COMPLETED' }, null, 550, 'USD')).toEqual({ paid: true });
  });

  it('a CANCELED or DRAFT order is never paid, even with a completed payment on it', () => {
    expect(paidState({ ...open, state: 'CANCELED' }, payment('P1', 550), 550, 'USD')).toEqual({
      paid: false,
      note: `Square order ${open.id} is CANCELED: a canceled order is not paid, nothing to earn`,
    });
    expect(paidState({ ...open, state: 'DRAFT' }, payment('P1', 550), 550, 'USD')).toMatchObject({ paid: false });
  });

  it('an OPEN order whose tenders add up to its total is paid (pickup, shipment, payment link)', () => {
    expect(paidState(withTenders(tender('P1', 550, open.id, 'L')), payment('P1', 550), 550, 'USD')).toEqual({ paid: true });
    expect(paidState(withTenders(tender('P1', 300, open.id, 'L'), tender('P2', 250, open.id, 'L')), null, 550, 'USD')).toEqual({
      paid: true,
    });
  });

  it('an OPEN order paid in part (a deposit, the first of several tenders) is not: the note says how much is received', () => {
    expect(paidState(withTenders(tender('P1', 100, open.id, 'L')), payment('P1', 100), 550, 'USD')).toEqual(notPaid('1.00', '5.50'));
    expect(paidState(open, null, 550, 'USD')).toEqual(notPaid('0.00', '5.50'));
  });

  it('the COMPLETED payment being mapped counts when the order does not list it yet, and only once when it does', () => {
    expect(paidState(open, payment('P1', 550), 550, 'USD')).toEqual({ paid: true });
    expect(paidState(open, payment('P1', 550, 'APPROVED'), 550, 'USD')).toEqual(notPaid('0.00', '5.50'));
    expect(paidState(withTenders(tender('P1', 300, open.id, 'L')), payment('P1', 300), 550, 'USD')).toEqual(notPaid('3.00', '5.50'));
  });

  it('voided or failed tenders bring no money (card, bank account, BNPL or Square account details)', () => {
    const voided = tender('P2', 250, open.id, 'L', 'VOIDED');
    const failed = tender('P3', 250, open.id, 'L', 'FAILED');
    const bankFailed = {
      ...tender('P4', 250, open.id, 'L'),
      card_details: null,
      type: 'BANK_ACCOUNT',
      bank_account_details: { status: 'FAILED' },
    };
    const cash = { ...tender('P5', 250, open.id, 'L'), card_details: null, type: 'CASH' };
    expect(paidState(withTenders(tender('P1', 300, open.id, 'L'), voided, failed, bankFailed), null, 550, 'USD')).toEqual(
      notPaid('3.00', '5.50'),
    );
    expect(paidState(withTenders(tender('P1', 300, open.id, 'L'), cash), null, 550, 'USD')).toEqual({ paid: true });
  });

  it('tenders in another currency or with unusable amounts are not added', () => {
    const euro = { ...tender('P2', 250, open.id, 'L'), amount_money: { amount: 250, currency: 'EUR' } };
    const fraction = { ...tender('P3', 250, open.id, 'L'), amount_money: { amount: -250, currency: 'USD' } };
    expect(paidState(withTenders(tender('P1', 300, open.id, 'L'), euro, fraction), null, 550, 'USD')).toEqual(notPaid('3.00', '5.50'));
  });

  it('net_amount_due_money of 0 is paid (a cross-check); any other value decides nothing by itself', () => {
    expect(paidState({ ...open, net_amount_due_money: { amount: 0, currency: 'USD' } }, null, 550, 'USD')).toEqual({ paid: true });
    const due = { amount: 450, currency: 'USD' };
    expect(paidState({ ...withTenders(tender('P1', 550, open.id, 'L')), net_amount_due_money: due }, null, 550, 'USD')).toEqual({
      paid: true,
    });
  });

  it('notes write zero-decimal currencies whole', () => {
    const yen = SquareOrder.parse({
      ...open,
      tenders: [{ ...tender('P1', 1000, open.id, 'L'), amount_money: { amount: 1000, currency: 'JPY' } }],
    });
    expect(paidState(yen, null, 5000, 'JPY')).toEqual({
      paid: false,
      note: `Square order ${open.id}: 1000 of 5000 JPY received; earns when paid in full`,
    });
  });
});
