import { ENGINE_SERVICE_ERRORS, ERRORS } from '@loyalty-gateway/core';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The rows `| 400 | \`code\` |` (engine-service.md) or `| \`code\` | 400 |` (errors.md) of a doc's error table. */
function documented(file: string): Map<string, number> {
  const rows = new Map<string, number>();
  for (const m of read(file).matchAll(/^\| (?:`([a-z_]+)` \| (\d{3})|(\d{3}) \| `([a-z_]+)`(?: \(with `fields`\))?) \|/gm)) {
    rows.set((m[1] ?? m[4])!, Number(m[2] ?? m[3]));
  }
  return rows;
}

/** Every non-test TypeScript source of the packages that answer HTTP requests. */
function sources(): string[] {
  const dirs = [
    'core/src',
    'storage/src',
    'engine/src',
    'gateway/src',
    ...readdirSync(path.join(root, 'adapters')).map((a) => `adapters/${a}/src`),
  ];
  return dirs.flatMap((dir) =>
    (readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.split(path.sep).includes('testing'))
      .map((file) => path.join(dir, file)),
  );
}

describe('the error table (core/src/errors.ts)', () => {
  it('holds every code a source answers with a literal `code:` (zod issues aside)', () => {
    const table = new Set([...Object.keys(ERRORS), ...Object.keys(ENGINE_SERVICE_ERRORS)]);
    const answered = new Map<string, string>();
    for (const file of sources()) {
      for (const m of read(file).matchAll(/\bcode: '([a-z][a-z_]*)'/g)) if (m[1] !== 'custom') answered.set(m[1]!, file);
    }
    expect([...answered.keys()]).toEqual(expect.arrayContaining(['invalid_command', 'bad_request', 'unauthorized', 'not_found']));
    expect([...answered].filter(([code]) => !table.has(code))).toEqual([]);
  });

  it('lists in docs/engine-service.md every code the engine service adds, with its status, and nothing else outside the table', () => {
    const docs = documented('docs/engine-service.md');
    for (const [code, entry] of Object.entries(ENGINE_SERVICE_ERRORS)) expect([code, docs.get(code)]).toEqual([code, entry.status]);
    for (const [code, status] of docs) {
      const entry =
        (ENGINE_SERVICE_ERRORS as Record<string, { status: number }>)[code] ?? (ERRORS as Record<string, { status: number }>)[code];
      expect([code, entry?.status]).toEqual([code, status]);
    }
  });

  it("lists in docs/errors.md exactly the table's codes with their status, and the engine service's own nowhere there", () => {
    const docs = documented('docs/errors.md');
    expect([...docs].sort()).toEqual(
      Object.entries(ERRORS)
        .map(([code, e]) => [code, e.status])
        .sort(),
    );
    for (const code of Object.keys(ENGINE_SERVICE_ERRORS))
      if (!(code in ERRORS)) expect(read('docs/errors.md')).not.toContain(`\`${code}\``);
  });
});
