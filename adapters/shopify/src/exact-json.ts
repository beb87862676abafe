/**
 * Shopify ids are 64-bit integers sent as bare JSON numbers; the documented sample ids
 * (820982911946154508) already exceed Number.MAX_SAFE_INTEGER, and a plain JSON.parse rounds
 * them (…508 becomes …500). Before parsing, any integer of 16+ digits that is the value of a key
 * ending in `id` (`id`, `order_id`, `variant_id`, …) is wrapped in quotes so it survives exactly.
 * A key inside a JSON string has an escaped opening quote (`\"id\"`) and is left alone. If the
 * rewrite ever produced invalid JSON the plain parse is used instead.
 */
const BIG_ID = /(?<!\\)("[A-Za-z0-9_]*id"\s*:\s*)(\d{16,})(?=\s*[,}\]])/g;

/** A UTF-8 byte-order mark, as the body's text starts with it: core's decoding reads the JSON after it, and so must this. */
const BOM = /^\uFEFF/;

export function parseExactJson(raw: Buffer | string): unknown {
  const text = (typeof raw === 'string' ? raw : raw.toString('utf8')).replace(BOM, '');
  try {
    return JSON.parse(text.replace(BIG_ID, '$1"$2"'));
  } catch {
    return JSON.parse(text);
  }
}
