/**
 * `items` in order, cut into runs whose weights add up to at most `max` (an item heavier than that
 * goes alone). What bounds one statement or command built from many items: the journal's
 * PostgreSQL batch by its chunks' bytes, a Redis turn's commands by their keys.
 */
export function chunkByWeight<T>(items: readonly T[], weightOf: (item: T) => number, max: number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let weight = 0;
  for (const item of items) {
    const w = weightOf(item);
    if (chunk.length > 0 && weight + w > max) {
      chunks.push(chunk);
      chunk = [];
      weight = 0;
    }
    chunk.push(item);
    weight += w;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
