import { z } from 'zod';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `anyOf: [{ type: X, … }, { type: 'null' }]` as `{ type: [X, 'null'], … }`: fast-json-stringify
 * writes a type list directly, but picks an `anyOf` branch by running ajv on every reply.
 */
function typeListForNullable(node: JsonObject): JsonObject {
  const { anyOf, ...rest } = node;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return node;
  const [value, nothing] = anyOf as unknown[];
  if (!isObject(value) || typeof value.type !== 'string' || !isObject(nothing) || nothing.type !== 'null') return node;
  return { ...rest, ...value, type: [value.type, 'null'] };
}

function forSerializer(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forSerializer);
  if (!isObject(node)) return node;
  return typeListForNullable(Object.fromEntries(Object.entries(node).map(([key, value]) => [key, forSerializer(value)])));
}

/**
 * The JSON schema of a route's answer, for Fastify's serializer (fast-json-stringify, which writes
 * the declared properties and nothing else), derived from the zod schema that types the answer:
 * a field added there is written to the wire, never silently dropped. `io: 'output'` describes what
 * the handler returns; a schema zod cannot express in JSON schema throws at start-up.
 */
export function responseJsonSchema(schema: z.ZodType): JsonObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
  return forSerializer(json) as JsonObject;
}
