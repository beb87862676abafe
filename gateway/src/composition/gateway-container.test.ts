import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createMemoryIdempotencyCache } from '../stores/index.js';
import { createTestContainer } from '../testing/test-container.js';
import { testSeedDocument } from '../testing/test-seed.js';
import { TOKENS, closeContainer, createGatewayContainer, get, open, perContainer, provide, resource, type Token } from './index.js';
import { ResourceScope } from './resource-scope.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-container-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (dataDir: string) =>
  loadConfig({
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_ENV: 'uat',
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOYALTY_ENGINE_URL: '',
    GATEWAY_SCHEDULER: 'off',
  });

describe('the composition root', () => {
  it('a child container override is used instead of the default, by what the child resolves from it; the parent keeps its own', async () => {
    const parent = createTestContainer({ database: 'sqlite', seedDocument: testSeedDocument() });
    const child = parent.createChildContainer();
    const cache = createMemoryIdempotencyCache();
    provide(child, TOKENS.idempotency, { useValue: Promise.resolve(cache) });
    try {
      // appOptions is registered on the root only: resolved from the child, it is made from the child's cache.
      expect((await open(child, TOKENS.appOptions)).idempotency).toBe(cache);
      expect((await open(parent, TOKENS.appOptions)).idempotency).not.toBe(cache);
      // One instance per container: resolving again gives the same one.
      expect(await open(child, TOKENS.store)).toBe(await open(child, TOKENS.store));
      expect(await open(child, TOKENS.store)).not.toBe(await open(parent, TOKENS.store));
    } finally {
      await closeContainer(child);
      await closeContainer(parent);
      await cache.close();
    }
  });

  it('closing closes every opened resource, in reverse order of opening', async () => {
    const c = createGatewayContainer(config(path.join(dir, 'order')));
    const closed: string[] = [];
    const a: Token<Promise<string>> = Symbol('a');
    const b: Token<Promise<string>> = Symbol('b');
    const never: Token<Promise<string>> = Symbol('never');
    const track = (name: string) => async () => void closed.push(name);
    provide(
      c,
      a,
      resource('a', async () => 'a', track('a')),
    );
    provide(
      c,
      b,
      resource('b', async (r) => `${await open(r, a)}b`, track('b')),
    );
    provide(
      c,
      never,
      resource('never', async () => 'never', track('never')),
    );
    expect(await open(c, b)).toBe('ab');
    expect(get(c, TOKENS.scope).names).toEqual(['a', 'b']);
    await closeContainer(c);
    expect(closed).toEqual(['b', 'a']);
    expect(get(c, TOKENS.scope).names).toEqual([]);
  });

  it('a test container opens database, store, engine, cache and app, and closes all of them (the database refuses queries after)', async () => {
    const c = createTestContainer({ database: 'sqlite', seedDocument: testSeedDocument() });
    const app = await open(c, TOKENS.app);
    const database = await open(c, TOKENS.gatewayDatabase);
    expect(get(c, TOKENS.scope).names).toEqual(['test database', 'gateway store', 'embedded engine', 'idempotency cache', 'app']);
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
    await closeContainer(c);
    await expect(database.db.selectFrom('gw_migrations').selectAll().execute()).rejects.toThrow();
    await expect(app.inject({ url: '/health' })).rejects.toThrow();
  });

  it('a failing boot step leaves open only what was opened before it; closing releases it', async () => {
    const c = createGatewayContainer(config(path.join(dir, 'failing'))).createChildContainer();
    provide(
      c,
      TOKENS.seedDocument,
      perContainer(() => Promise.reject(new Error('seed refused'))),
    );
    await expect(open(c, TOKENS.app)).rejects.toThrow('seed refused');
    // The seed step opens the data it writes to first: the databases, the store, the engine thread.
    expect(get(c, TOKENS.scope).names).toEqual(['databases', 'gateway store', 'embedded engine']);
    const databases = await open(c, TOKENS.databases);
    await closeContainer(c);
    expect(get(c, TOKENS.scope).names).toEqual([]);
    await expect(databases.gateway.db.selectFrom('gw_migrations').selectAll().execute()).rejects.toThrow();
  });
});

describe('ResourceScope', () => {
  it('names a step still running after the slow limit, logs a failing one and still closes the rest', async () => {
    const lines: Array<{ level: string; detail: object; message: string }> = [];
    const log = {
      warn: (detail: object, message: string) => lines.push({ level: 'warn', detail, message }),
      error: (detail: object, message: string) => lines.push({ level: 'error', detail, message }),
    };
    const scope = new ResourceScope(() => log, 20);
    const closed: string[] = [];
    scope.add('first', async () => void closed.push('first'));
    scope.add('failing', async () => {
      throw new Error('cannot close');
    });
    scope.add('slow', () => new Promise((resolve) => setTimeout(() => resolve(closed.push('slow')), 80)));
    await scope.close();
    expect(closed).toEqual(['slow', 'first']);
    expect(lines.map((l) => [l.level, l.message, (l.detail as { step: string }).step])).toEqual([
      ['warn', 'shutdown step still running after 0.02 s', 'slow'],
      ['error', 'shutdown step failed', 'failing'],
    ]);
  });

  it('a resource that finishes opening after the scope closed is closed at once', async () => {
    const scope = new ResourceScope(() => null);
    await scope.close();
    let closed = false;
    scope.add('late', async () => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });
});
