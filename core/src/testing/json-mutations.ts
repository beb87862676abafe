import fc from 'fast-check';
import { toMinorUnits } from '../money.js';
import { CatalogItem } from '../schemas/catalog.js';
import { FeaturedEnvelope } from '../schemas/featured-envelope.js';

/**
 * Payload fuzzing (the gateway's envelope and featured-door fuzz tests, and each adapter's mapping
 * properties): every path of a JSON value, a copy with one path changed, and a fast-check
 * generator of a document with a few of its values changed.
 */

export type JsonPath = Array<string | number>;

/** Every path of a JSON value, the root (`[]`) included, parents before their children. */
export function jsonPaths(value: unknown, prefix: JsonPath = []): JsonPath[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => jsonPaths((value as Record<string | number, unknown>)[k], [...prefix, k]))];
}

/**
 * A copy of `base` with the value at `path` replaced (`set`), removed (`delete`: an array's
 * element is spliced out), or, where it is an object, given one more key (`add`: `key` = `value`).
 * `base` is never changed. At the root, `set` returns `value` and the other two a copy.
 */
export function mutateJson(base: unknown, path: JsonPath, op: 'set' | 'delete' | 'add', value: unknown, key = 'added'): unknown {
  const copy = structuredClone(base);
  if (path.length === 0) return op === 'set' ? value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[key] = value;
  }
  return copy;
}

/**
 * Values vendors' fields get wrong: other types, edge numbers, money-like and date-like text,
 * empty and long text, and the two JSON escapes no database stores as sent (NUL, an unpaired
 * surrogate). Mix them with a generator's arbitrary JSON.
 */
export const ODD_JSON_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -0.01,
  0.005,
  1e21,
  '',
  ' ',
  '0',
  '-5.00',
  '1e3',
  'NaN',
  '12.345',
  '9'.repeat(40),
  '2017-03-22T16:28:02',
  'not a date',
  '2025-02-30T00:00:00Z',
  '\u0000',
  'name\u0000',
  '\ud800',
  'x'.repeat(300),
  `${'y'.repeat(254)}😀`,
  [],
  {},
];

const change = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('set', 'delete', 'add') as fc.Arbitrary<'set' | 'delete' | 'add'>,
  value: fc.oneof(
    fc.constantFrom(...ODD_JSON_VALUES),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.string(),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  key: fc.string({ minLength: 1, maxLength: 8 }),
});

/**
 * `base` (a vendor's documented payload, say) with one to `maxChanges` of its values replaced by
 * an odd value or arbitrary JSON, deleted, or given a key: each change picks among the paths of
 * the document as the changes before it left it.
 */
export function mutatedJson(base: unknown, maxChanges = 3): fc.Arbitrary<unknown> {
  return fc.array(change, { minLength: 1, maxLength: maxChanges }).map((changes) =>
    changes.reduce((body, { pick, op, value, key }) => {
      const paths = jsonPaths(body);
      return mutateJson(body, paths[pick % paths.length]!, op, value, key);
    }, base),
  );
}

/** Why the door would refuse `envelope` (the strict canonical schema: a 500 when an adapter made it), or nothing. */
export function envelopeProblems(envelope: unknown): string[] {
  const parsed = FeaturedEnvelope.safeParse(envelope);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(envelope)'}: ${issue.message}`);
}

/**
 * Why a catalog pull would refuse `item` (the strict canonical schema, and a price in whole cents:
 * gateway/src/scheduler/to-catalog-command.ts), or nothing. One such item fails the whole pull.
 */
export function catalogItemProblems(item: unknown): string[] {
  const parsed = CatalogItem.safeParse(item);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`);
  return parsed.data.price !== undefined && toMinorUnits(parsed.data.price) === null ? ['price: not a whole number of cents'] : [];
}

/**
 * What vendors put in a customer's contact fields: odd JSON, arbitrary and lone-surrogate text,
 * phone-like and email-like text (national, international, with letters or an extension), country
 * codes right and wrong.
 */
export const contactValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...ODD_JSON_VALUES),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.stringMatching(/^\+?[\d\s().-]{0,24}(?: ?(?:x|ext\.?) ?\d{1,5})?$/),
  fc.emailAddress(),
  fc.emailAddress().map((email) => `${email}\u0000`),
  fc.constantFrom('555-555-SHIP', '(212) 555-4240', '07700 900123', '+44 7700 900123', '1-212-555-4240', 'a@b', 'jane@@example.com'),
  fc.constantFrom('US', 'GB', 'DE', 'us', 'XX', 'USA', ''),
);

/** Whether `path` can be set in `value`: its parent exists and is an object or array. */
function settable(value: unknown, path: JsonPath): boolean {
  let parent = value;
  for (const step of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = (parent as Record<string | number, unknown>)[step];
  }
  return parent !== null && typeof parent === 'object';
}

/**
 * `base` with one or more of `paths` (those whose parent it has) set to generated values: a
 * vendor's documented payload whose contact fields (email, phone, country…) hold anything.
 */
export function mutatedAt(base: unknown, paths: readonly JsonPath[], value: fc.Arbitrary<unknown> = contactValue): fc.Arbitrary<unknown> {
  const present = paths.filter((path) => settable(base, path));
  if (present.length === 0) throw new Error('mutatedAt: none of the paths can be set in the base document');
  return fc
    .uniqueArray(fc.constantFrom(...present), { minLength: 1, maxLength: present.length, selector: (path) => path.join('.') })
    .chain((chosen) =>
      fc.tuple(...chosen.map(() => value)).map((values) => chosen.reduce((doc, path, i) => mutateJson(doc, path, 'set', values[i]), base)),
    );
}
