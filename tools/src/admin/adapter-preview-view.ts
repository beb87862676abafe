import { readable, renderTable, wrapText, type Row, type TableLayout } from './render-table.js';

interface Preview {
  status: string;
  membershipId: string;
  pointsEarned: number;
  stampsUpdated: Array<{ rewardTitle: string; current: number; required: number; completed: boolean }>;
  warning: string | null;
}
interface PreviewedEvent {
  envelope: { eventType: string; transaction: { id: string } } & Record<string, unknown>;
  preview?: Preview;
  refused?: { code: string; message: string };
}
interface PreviewedUnit {
  storeId: string;
  connection: { id: string; storeId: string; merchantId: string; outletId: string } | null;
  note: string | null;
  events: PreviewedEvent[];
  error: { code: string; message: string; cause: { call: string; what: string; ms: number | null } | null } | null;
}
export interface AdapterPreviewAnswer {
  adapter: string;
  handshake: { note: string } | null;
  units: PreviewedUnit[];
  unreadable: Array<{ storeId: string; detail: string }>;
}

/** What an event would do: `would_process 12 points, card 2/5`, or the ledger's refusal. */
function outcome(event: PreviewedEvent): string {
  if (event.refused) return `refused ${event.refused.code}: ${event.refused.message}`;
  const p = event.preview!;
  const cards = p.stampsUpdated.map((s) => `${s.rewardTitle} ${s.current}/${s.required}${s.completed ? ' (completed)' : ''}`);
  const member = p.membershipId ? ` for ${p.membershipId}` : '';
  // Points only where a sale would earn: a duplicate, a void or a refund moves none.
  const head = p.status === 'would_process' ? `${p.status} ${p.pointsEarned} points${member}` : p.status;
  return [head, ...cards, ...(p.warning ? [p.warning] : [])].join('; ');
}

/**
 * `admin adapters preview`'s answer for a person: per unit, the connection it was mapped for, the
 * adapter's note or why it failed (the call it would make), a table of its events and what each
 * would do, then each canonical envelope as the JSON it is (what the adapter's mapping produced).
 */
export function formatAdapterPreview(answer: AdapterPreviewAnswer, layout: TableLayout): string {
  const out: string[] = [];
  const say = (text: string, indent = '') => out.push(...wrapText(text, layout.width - indent.length).map((l) => `${indent}${l}`));
  if (answer.handshake) {
    say(`A ${answer.adapter} setup call (handshake), nothing to map: ${answer.handshake.note}`);
    return out.join('\n');
  }
  if (answer.units.length === 0) say('The payload names no store: nothing to map.');
  for (const unit of answer.units) {
    const connection = unit.connection
      ? ` mapped for connection ${unit.connection.id} (${unit.connection.storeId}, merchant ${unit.connection.merchantId}, outlet ${unit.connection.outletId})`
      : '';
    say(`store ${unit.storeId}${connection}`);
    if (unit.note) say(`note: ${unit.note}`, '  ');
    if (unit.error) {
      say(`${unit.error.code}: ${unit.error.message}`, '  ');
      if (unit.error.cause) say(`cause: ${readable(unit.error.cause)}`, '  ');
    }
    if (unit.events.length === 0) continue;
    const rows: Row[] = unit.events.map((e) => ({
      event: e.envelope.eventType,
      transaction: e.envelope.transaction.id,
      'would do': outcome(e),
    }));
    out.push(...renderTable(rows, { ...layout, wide: false }, undefined, '  '));
    unit.events.forEach((event, i) => {
      out.push(`  envelope ${i + 1} (${event.envelope.eventType}):`);
      out.push(
        ...JSON.stringify(event.envelope, null, 2)
          .split('\n')
          .map((line) => `    ${line}`),
      );
    });
  }
  for (const part of answer.unreadable) say(`unreadable: store ${part.storeId}: ${part.detail}`);
  say('Nothing was committed: no points, no cache entry, no journal entry.');
  return out.join('\n');
}
