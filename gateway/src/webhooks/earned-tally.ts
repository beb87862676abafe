import type { FeaturedEnvelope, StampUpdate } from '@loyalty-gateway/core';
import { nothingEarnedOf, type NothingEarnedReason } from './nothing-earned.js';
import type { PipelineResult } from './webhook-pipeline.js';

/** What one event moved in the wallet, as the journal and the metric count it. */
export interface EarnedEvent {
  eventType: string;
  /** A sale's points (0 for a duplicate); null for any other event. */
  pointsEarned: number | null;
  /** A refund's points reversed; null for any other event. */
  pointsReversed: number | null;
  stamps: readonly StampUpdate[];
  nothingEarned: NothingEarnedReason | null;
}

/** What a request's events moved together: its journal entry's points, stamps and reason, and the metric's reasons. */
export interface EarnedTally {
  pointsEarned: number | null;
  pointsReversed: number | null;
  /** The stamp cards advanced (`Coffee card 4/10; Bagel card 10/10 completed`), or null. */
  stamps: string | null;
  /** Why a processed sale earned nothing (a batch: the first such sale's reason), or null. */
  nothingEarned: NothingEarnedReason | null;
  /** Processed sales that earned nothing, counted by reason (gateway_earn_outcomes_total). */
  reasons: Array<[NothingEarnedReason, number]>;
}

/** One event's share: its sale's or refund's points, its stamps, and why it earned nothing. */
export function earnedOf(envelope: FeaturedEnvelope, result: PipelineResult): EarnedEvent {
  return {
    eventType: envelope.eventType,
    pointsEarned: envelope.eventType === 'sale.completed' ? result.pointsEarned : null,
    pointsReversed: envelope.eventType === 'sale.refunded' ? (result.pointsReversed ?? 0) : null,
    stamps: result.stampsUpdated,
    nothingEarned: nothingEarnedOf(envelope, result),
  };
}

const stampText = (update: StampUpdate): string =>
  `${update.rewardTitle} ${update.current}/${update.required}${update.completed ? ' completed' : ''}`;

/** The events of one request together; undefined when it had none (a refusal, a handshake). */
export function tallyEarned(events: readonly EarnedEvent[]): EarnedTally | undefined {
  if (events.length === 0) return undefined;
  let pointsEarned: number | null = null;
  let pointsReversed: number | null = null;
  const stamps: string[] = [];
  const reasons = new Map<NothingEarnedReason, number>();
  for (const event of events) {
    if (event.pointsEarned !== null) pointsEarned = (pointsEarned ?? 0) + event.pointsEarned;
    if (event.pointsReversed !== null) pointsReversed = (pointsReversed ?? 0) + event.pointsReversed;
    for (const update of event.stamps) stamps.push(stampText(update));
    if (event.nothingEarned) reasons.set(event.nothingEarned, (reasons.get(event.nothingEarned) ?? 0) + 1);
  }
  const [first] = reasons.keys();
  return {
    pointsEarned,
    pointsReversed,
    stamps: stamps.length > 0 ? stamps.join('; ') : null,
    nothingEarned: first ?? null,
    reasons: [...reasons],
  };
}
