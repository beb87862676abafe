import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS, SIZE_COLUMN, type Row } from './journal-types.js';
import { createRowTape, forEachRow, jsonbArray, rowsOf } from './row-tape.js';

const value = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -0x80000000, max: 0x7fffffff }),
  // received_at: milliseconds since 1970, past 32 bits.
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
);
const row = (width: number) => fc.array(value, { minLength: width, maxLength: width }) as fc.Arbitrary<Row>;

/** A text as UTF-8 carries it: an unpaired surrogate becomes U+FFFD (clipText never leaves one in a journal row). */
const asStored = (r: Row): Row =>
  r.map((v) => (typeof v === 'string' ? Buffer.from(v, 'utf8').toString('utf8') : Object.is(v, -0) ? 0 : v));

describe("the journal's tape (rows queued outside V8's heap)", () => {
  it('gives back every row as queued, in order, whatever its values (texts of any script, long ones, numbers past 32 bits)', () => {
    fc.assert(
      fc.property(
        fc.array(row(7), { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 64, max: 2_048 }),
        (rows, rowsPerChunk, chunkBytes) => {
          const tape = createRowTape({ rowsPerChunk, chunkBytes });
          for (const r of rows) tape.push(r);
          expect(tape.rows).toBe(rows.length);
          const back: Row[] = [];
          for (let batch = tape.take(12); batch; batch = tape.take(12)) back.push(...rowsOf(batch.chunks, 7));
          expect(back).toEqual(rows.map(asStored));
          expect(tape.rows).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an unpaired surrogate comes back as U+FFFD, also where one text ends with a high one and the next starts with a low one', () => {
    const tape = createRowTape({ rowsPerChunk: 10 });
    tape.push(['a\ud800', '\udc00b', '\ud83d\ude00 ok']);
    expect(rowsOf(tape.take(10)!.chunks, 3)).toEqual([['a\ufffd', '\ufffdb', '\ud83d\ude00 ok']]);
  });

  it("a json tape's chunks are one jsonb value in PostgreSQL's binary format: version 1, then the rows as one JSON array", () => {
    fc.assert(
      fc.property(fc.array(row(5), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 7 }), (rows, rowsPerChunk) => {
        const tape = createRowTape({ rowsPerChunk, chunkBytes: 512, encoding: 'json' });
        for (const r of rows) tape.push(r);
        const value = jsonbArray(tape.take(1_000)!.chunks);
        expect(value[0]).toBe(1);
        expect(JSON.parse(value.subarray(1).toString('utf8'))).toEqual(JSON.parse(JSON.stringify(rows)));
      }),
      { numRuns: 200 },
    );
  });

  it('a batch is whole chunks of at most maxRows rows (one chunk even when it alone holds more), with their rows and sizes counted', () => {
    const tape = createRowTape({ rowsPerChunk: 3 });
    const sized = (n: number): Row => {
      const r: Row = new Array(COLUMNS.length).fill(null);
      r[0] = `id-${n}`;
      r[SIZE_COLUMN] = 100 + n;
      return r;
    };
    for (let n = 0; n < 8; n += 1) tape.push(sized(n));
    const first = tape.take(7)!;
    expect(first.chunks.map((c) => c.rows)).toEqual([3, 3]);
    expect(first).toMatchObject({ rows: 6, sizeBytes: 6 * 100 + (0 + 1 + 2 + 3 + 4 + 5) });
    expect(tape.rows).toBe(2);
    const second = tape.take(1)!;
    expect(second).toMatchObject({ rows: 2, sizeBytes: 200 + 6 + 7 });
    expect(rowsOf(second.chunks, COLUMNS.length).map((r) => r[0])).toEqual(['id-6', 'id-7']);
    expect(tape.take(10)).toBeNull();
  });

  it('a row larger than a chunk gets a chunk as large as it could need; rows go on after it', () => {
    const tape = createRowTape({ rowsPerChunk: 100, chunkBytes: 256 });
    const big = 'é'.repeat(10_000);
    tape.push(['a', 1]);
    tape.push([big, 2]);
    tape.push(['c', 3]);
    const batch = tape.take(100)!;
    expect(batch.chunks.map((c) => c.rows)).toEqual([1, 2]);
    expect(batch.chunks[1]!.bytes.buffer.byteLength).toBeGreaterThanOrEqual(20_000);
    expect(rowsOf(batch.chunks, 2)).toEqual([
      ['a', 1],
      [big, 2],
      ['c', 3],
    ]);
  });

  it("a batch's chunks are transferred to another thread whole (no copy) and read there", async () => {
    const tape = createRowTape({ rowsPerChunk: 50 });
    const rows: Row[] = Array.from({ length: 120 }, (_, n) => [`req-${n}`, n, n % 3 === 0 ? null : `näme ${n}`, 1_790_000_000_000 + n]);
    for (const r of rows) tape.push(r);
    const batch = tape.take(1_000)!;
    const views = batch.chunks.map((c) => c.bytes);
    const buffers = views.map((v) => v.buffer as ArrayBuffer);
    const thread = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', (chunks) => { parentPort.postMessage(chunks.map((bytes) => [bytes.byteLength, bytes.buffer.byteLength])); });`,
      { eval: true },
    );
    try {
      const received = new Promise<number[][]>((resolve) => thread.once('message', resolve));
      thread.postMessage(views, buffers);
      // Transferred: this thread's views are detached, the other thread holds the bytes.
      expect(buffers.every((b) => b.byteLength === 0)).toBe(true);
      const sizes = await received;
      expect(sizes.reduce((n, [length]) => n + length!, 0)).toBeGreaterThan(120 * 20);
    } finally {
      await thread.terminate();
    }
  });

  it('forEachRow reuses one array: a row kept past its callback must be copied (rowsOf does)', () => {
    const tape = createRowTape({ rowsPerChunk: 10 });
    tape.push(['a', 1]);
    tape.push(['b', 2]);
    const seen: Row[] = [];
    forEachRow(tape.take(10)!.chunks, 2, (r) => seen.push(r));
    expect(seen[0]).toBe(seen[1]);
    expect(seen[1]).toEqual(['b', 2]);
  });
});

describe("forEachRow's utf8 texts (what the SQLite writer binds)", () => {
  const decoded = (r: ReadonlyArray<Row[number] | Uint8Array>): Row =>
    r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v));

  it('gives an ASCII row its texts as views of their bytes, a row with any other character its texts as strings', () => {
    const tape = createRowTape({ rowsPerChunk: 10 });
    tape.push(['ascii', '', 7, null, 'end']);
    tape.push(['café', 'x', 7, null, '😀']);
    const seen: Array<Array<string | number | null | Uint8Array>> = [];
    forEachRow(tape.take(10)!.chunks, 5, (r) => seen.push(r.map((v) => (v instanceof Uint8Array ? new Uint8Array(v) : v))), 'utf8');
    expect(seen[0]!.map((v) => (v instanceof Uint8Array ? 'bytes' : typeof v))).toEqual(['bytes', 'bytes', 'number', 'object', 'bytes']);
    expect(seen[1]!.map((v) => typeof v)).toEqual(['string', 'string', 'number', 'object', 'string']);
    expect(seen.map(decoded)).toEqual([
      ['ascii', '', 7, null, 'end'],
      ['café', 'x', 7, null, '😀'],
    ]);
  });

  it('reads back the same rows as strings do, whatever their values', () => {
    fc.assert(
      fc.property(fc.array(row(7), { maxLength: 40 }), (rows) => {
        const tape = createRowTape({ rowsPerChunk: 5, chunkBytes: 512 });
        for (const r of rows) tape.push(r);
        const back: Row[] = [];
        for (let batch = tape.take(100); batch; batch = tape.take(100)) forEachRow(batch.chunks, 7, (r) => back.push(decoded(r)), 'utf8');
        expect(back).toEqual(rows.map(asStored));
      }),
    );
  });
});
