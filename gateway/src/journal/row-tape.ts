import { SIZE_COLUMN, type Row } from './journal-types.js';

/**
 * The journal's queue as bytes outside V8's heap. An entry waits up to a flush interval (250 ms)
 * before it is written; kept as an array of values it survived the young generation's scavenges
 * (every ~15 ms under load with the production start's 4 MiB semi-spaces), was copied by each and
 * then promoted, and the old generation's collections grew with it (docs/benchmarks.md, "The
 * delivery journal"). Here a row is encoded once, when it is queued, into chunks of memory V8 does
 * not scan or copy; the values it was built from die young. A batch is whole chunks: handed to the
 * SQLite writer thread without a copy (their memory is transferred), read back into rows on the
 * thread that writes them.
 *
 * A row is its length in bytes (u32), a header per value — a tag byte, then for a 32-bit integer
 * its 4 bytes, for any other number its float64, for a text its length in UTF-16 code units (u32)
 * — and then all its texts as one run of UTF-8 (one native write, one read back, each text a
 * slice of it). An unpaired surrogate comes back as U+FFFD (as any UTF-8 carries it; clipText
 * leaves none in a journal row). A row never spans chunks.
 */

const NULL = 0;
const INT = 1;
const FLOAT = 2;
const TEXT = 3;

/** A chunk's bytes (a row that could need more gets a chunk of the size it could need). */
const CHUNK_BYTES = 64 * 1024;

/** Whole rows encoded in one chunk of memory: `bytes` holds exactly them. */
export interface TapeChunk {
  bytes: Uint8Array;
  rows: number;
  /** The rows' `size_bytes` added up (what the byte budget counts once they are written). */
  sizeBytes: number;
}

/** Rows taken off the tape together: what the writer commits as one batch. */
export interface TapeBatch {
  chunks: TapeChunk[];
  rows: number;
  sizeBytes: number;
}

export interface RowTapeOptions {
  /** Rows one chunk holds at most (a batch is whole chunks: at most a batch's rows). */
  rowsPerChunk: number;
  chunkBytes?: number;
  /**
   * `values` (default): the encoding above, read back with forEachRow. `json`: each row as its JSON
   * array and a comma, what PostgreSQL's batch statement takes (jsonbArray), read back by nobody
   * on this side; it relies on the rows' texts being well formed, as clipText leaves them
   * (JSON.stringify escapes an unpaired surrogate, and PostgreSQL's JSON input refuses the escape).
   */
  encoding?: 'values' | 'json';
}

/** The queue of rows waiting to be written, oldest first. */
export function createRowTape(options: RowTapeOptions) {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const json = options.encoding === 'json';
  const sealed: TapeChunk[] = [];
  let buffer: Buffer | null = null;
  let used = 0;
  let open = { rows: 0, sizeBytes: 0 };
  let rows = 0;

  function seal(): void {
    if (buffer && open.rows > 0) sealed.push({ bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, used), ...open });
    buffer = null;
    used = 0;
    open = { rows: 0, sizeBytes: 0 };
  }

  return {
    /** Rows queued, not yet taken. */
    get rows(): number {
      return rows;
    },
    push(row: Row): void {
      let text = '';
      if (json) text = JSON.stringify(row);
      else for (const value of row) if (typeof value === 'string') text += wellFormed(value);
      // At most 9 bytes a value's header, 3 a UTF-16 code unit of text (and a comma).
      const worst = 4 + 9 * row.length + 3 * text.length + 1;
      if (buffer === null || used + worst > buffer.length || open.rows >= options.rowsPerChunk) {
        seal();
        // Its own memory, never a slice of Buffer's shared pool: a chunk's memory is transferred whole.
        buffer = Buffer.allocUnsafeSlow(Math.max(chunkBytes, worst));
      }
      if (json) {
        used += buffer.write(text, used, 'utf8');
        buffer[used++] = COMMA;
      } else used = encodeRow(buffer, used, row, text);
      open.rows += 1;
      open.sizeBytes += Number(row[SIZE_COLUMN] ?? 0);
      rows += 1;
    },
    /**
     * The oldest whole chunks holding at most `maxRows` rows (at least one chunk), or null when the
     * tape is empty. The chunk being filled is closed first: every row queued so far can be taken.
     */
    take(maxRows: number): TapeBatch | null {
      if (rows === 0) return null;
      seal();
      const chunks: TapeChunk[] = [];
      let taken = 0;
      let sizeBytes = 0;
      while (sealed.length > 0 && (chunks.length === 0 || taken + sealed[0]!.rows <= maxRows)) {
        const chunk = sealed.shift()!;
        chunks.push(chunk);
        taken += chunk.rows;
        sizeBytes += chunk.sizeBytes;
      }
      rows -= taken;
      return { chunks, rows: taken, sizeBytes };
    },
  };
}

/** ES2024's String methods (Node 20 has them; the project's TypeScript lib is ES2023). */
type WellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * A text with each unpaired surrogate as U+FFFD, as UTF-8 would carry it anyway, one code unit for
 * one: done here so that a lone high surrogate ending one text and a lone low one starting the
 * next cannot become one character in the row's run of texts.
 */
const wellFormed = (value: string): string => ((value as WellFormed).isWellFormed() ? value : (value as WellFormed).toWellFormed());

function encodeRow(buffer: Buffer, start: number, row: Row, text: string): number {
  // The row's length in bytes, then a header per value, then its texts as one UTF-8 run.
  let at = start + 4;
  for (const value of row) {
    if (value === null || value === undefined) buffer[at++] = NULL;
    else if (typeof value === 'string') {
      buffer[at] = TEXT;
      buffer.writeUInt32LE(value.length, at + 1);
      at += 5;
    } else if (Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) {
      buffer[at] = INT;
      buffer.writeInt32LE(value, at + 1);
      at += 5;
    } else {
      buffer[at] = FLOAT;
      buffer.writeDoubleLE(Number(value), at + 1);
      at += 9;
    }
  }
  at += text.length === 0 ? 0 : buffer.write(text, at, 'utf8');
  buffer.writeUInt32LE(at - start, start);
  return at;
}

/**
 * How forEachRow gives a row's texts: `strings` (JS strings), or `utf8`: each text of an ASCII row
 * as a view of its UTF-8 bytes in the chunk (no string made; valid until the chunk is let go), a
 * row with any other character as strings. The writer binds `utf8` views as blobs cast to text
 * (journal-worker.ts): better-sqlite3 copies a JS string's UTF-8 out of V8 into memory of its own
 * before SQLite copies it again, a view it hands to SQLite as it is.
 */
export type TapeTexts = 'strings' | 'utf8';

/** A row as forEachRow gives it with `utf8` texts: a text may be a view of its UTF-8 bytes. */
export type BytesRow = Array<Row[number] | Uint8Array>;

/**
 * Each row of `chunks`, in order, read into one array of `columns` values that is reused for every
 * row (copy it to keep it): what the writer binds and lets go.
 */
export function forEachRow(chunks: readonly { bytes: Uint8Array }[], columns: number, each: (row: Row) => void, texts?: 'strings'): void;
export function forEachRow(
  chunks: readonly { bytes: Uint8Array }[],
  columns: number,
  each: (row: BytesRow) => void,
  texts: TapeTexts,
): void;
export function forEachRow(
  chunks: readonly { bytes: Uint8Array }[],
  columns: number,
  each: ((row: Row) => void) | ((row: BytesRow) => void),
  texts: TapeTexts = 'strings',
): void {
  // Strings only unless the caller asked for `utf8`: then it takes a BytesRow.
  const give = each as (row: BytesRow) => void;
  const row: BytesRow = new Array(columns).fill(null);
  /** Per column, its text's length in UTF-16 code units, or -1 when it holds no text. */
  const textLengths = new Int32Array(columns);
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
    let at = 0;
    while (at < bytes.length) {
      const end = at + bytes.readUInt32LE(at);
      at += 4;
      let units = 0;
      for (let column = 0; column < columns; column += 1) {
        const tag = bytes[at]!;
        textLengths[column] = -1;
        if (tag === NULL) {
          row[column] = null;
          at += 1;
        } else if (tag === INT) {
          row[column] = bytes.readInt32LE(at + 1);
          at += 5;
        } else if (tag === FLOAT) {
          row[column] = bytes.readDoubleLE(at + 1);
          at += 9;
        } else {
          const length = bytes.readUInt32LE(at + 1);
          textLengths[column] = length;
          units += length;
          at += 5;
        }
      }
      // The texts were written as one UTF-8 run. As many bytes as UTF-16 code units: every
      // character is ASCII, one byte each, so each text is a view of its bytes (utf8). Otherwise
      // the run is read as one string and each text is a slice of it by its length.
      if (texts === 'utf8' && end - at === units) {
        let from = chunk.bytes.byteOffset + at;
        for (let column = 0; column < columns; column += 1) {
          const length = textLengths[column]!;
          if (length < 0) continue;
          row[column] = new Uint8Array(chunk.bytes.buffer, from, length);
          from += length;
        }
      } else {
        const text = at < end ? bytes.toString('utf8', at, end) : '';
        let from = 0;
        for (let column = 0; column < columns; column += 1) {
          const length = textLengths[column]!;
          if (length < 0) continue;
          row[column] = text.slice(from, from + length);
          from += length;
        }
      }
      at = end;
      give(row);
    }
  }
}

const COMMA = 0x2c;
const CLOSE = 0x5d;
/** jsonb's binary input: its format version (1), then the JSON text. */
const JSONB_ARRAY_START = Buffer.from([1, 0x5b]);

/**
 * Chunks of a `json` tape as one jsonb value in PostgreSQL's binary format: the rows as one JSON
 * array, its bytes copied once (no string on V8's heap; a batch's JSON text of a few hundred KiB
 * would be allocated in the old generation directly).
 */
export function jsonbArray(chunks: readonly { bytes: Uint8Array }[]): Buffer {
  const value = Buffer.concat([JSONB_ARRAY_START, ...chunks.map((chunk) => chunk.bytes)]);
  // Every row ends with a comma: the last one closes the array instead.
  value[value.length - 1] = CLOSE;
  return value;
}

/** The rows of `chunks` as arrays of their own. */
export function rowsOf(chunks: readonly { bytes: Uint8Array }[], columns: number): Row[] {
  const rows: Row[] = [];
  forEachRow(chunks, columns, (row) => rows.push(row.slice()));
  return rows;
}
