/** Every path into a JSON value (objects and arrays), the root included. */
export function jsonPaths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => jsonPaths((value as Record<string | number, unknown>)[k], [...prefix, k]))];
}

export type Mutation = 'set' | 'delete' | 'add';

/** A copy of `base` with one change at `path`: replace the value, delete it, or add `key` to an object there. */
export function mutateJson(base: unknown, path: Array<string | number>, op: Mutation, value: unknown, key: string): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  if (path.length === 0) return op === 'set' ? value : copy;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const target = parent[last];
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
    (target as Record<string, unknown>)[key] = value;
  }
  return copy;
}
