import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorBody } from '@loyalty-gateway/core';
import { createEmbeddedEngine } from '@loyalty-gateway/engine';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createGatewayStore, createMemoryIdempotencyCache } from '../../src/stores/index.js';
import { openMigratedDatabase } from '../../src/testing/migrated-database.js';
import { BODY_LIMIT } from '../../src/http/body-limit.js';

/**
 * Python's http.client (and so `requests`) writes the request's headers and its whole body before
 * it reads a byte of the answer: a server that closes while body bytes are still unread makes the
 * kernel reset the connection, and the client sees a broken pipe or a reset instead of the answer.
 * Prints one JSON line per attempt: {status, body} or {error}.
 */
const PYTHON_CLIENT = `
import http.client, io, json, sys, time
port, path, size, tries, big_header = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == '1'
for attempt in range(tries):
    # Bytes are sent with one sendall; a file (an upload with requests) in 8 KiB blocks, each sent whole.
    body = b'a' * size if attempt % 2 == 0 else io.BytesIO(b'a' * size)
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
    headers = {'Content-Type': 'application/json', 'X-Service-Vendor': 'acme-pos', 'X-Service-Store': 'store-001',
               'X-Service-Timestamp': str(int(time.time())), 'X-Service-Signature': 'v1=AAAA'}
    if big_header:
        headers['X-Big'] = 'b' * 20000
    headers['Content-Length'] = str(size)
    try:
        conn.request('POST', path, body=body, headers=headers)
        response = conn.getresponse()
        print(json.dumps({'status': response.status, 'body': response.read().decode('utf-8', 'replace')}), flush=True)
    except Exception as error:
        print(json.dumps({'error': type(error).__name__ + ': ' + str(error)}), flush=True)
    finally:
        conn.close()
`;

type PythonAnswer = { status: number; body: string } | { error: string };

function python(port: number, urlPath: string, size: number, tries: number, bigHeader = false): Promise<PythonAnswer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', PYTHON_CLIENT, String(port), urlPath, String(size), String(tries), bigHeader ? '1' : '0']);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`python3 exited ${code}: ${err}`));
      resolve(
        out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as PythonAnswer),
      );
    });
  });
}

function curl(args: string[]): Promise<{ status: number; body: string; exit: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', '-', '-w', '\n%{http_code}', ...args]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', (exit) => {
      const cut = out.lastIndexOf('\n');
      resolve({ body: out.slice(0, cut), status: Number(out.slice(cut + 1)), exit: exit ?? -1 });
    });
  });
}

const hasPython = spawnSync('python3', ['--version']).status === 0;
const hasCurl = spawnSync('curl', ['--version']).status === 0;

describe('an answer given before the body was read (413, 401, 431) reaches clients that write the whole body first', () => {
  let app: FastifyInstance;
  let port = 0;
  let dir = '';
  beforeAll(async () => {
    if (process.env.CI && (!hasPython || !hasCurl)) throw new Error('python3 and curl are needed in CI');
    dir = mkdtempSync(path.join(os.tmpdir(), 'drain-'));
    const database = await openMigratedDatabase('sqlite');
    const store = await createGatewayStore({ database, masterKey: randomBytes(32) });
    await store.ensureVendor({ slug: 'acme-pos', name: 'Acme POS', tier: 'generic' });
    await store.ensureConnection({
      vendor: 'acme-pos',
      storeId: 'store-001',
      merchantId: 'm-1',
      outletId: 'o-1',
      secret: 'whsec_drain_0123456789',
    });
    app = await buildApp({
      engine: await createEmbeddedEngine({ database }),
      connections: store,
      idempotency: createMemoryIdempotencyCache(),
      rateLimit: { max: 10_000 },
      http: { requestTimeoutMs: 10_000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(hasPython)("Python's http.client posting 3 MB reads the 413 Error body, twenty times out of twenty", async () => {
    const answers = await python(port, '/webhooks/generic', 3 * 1024 * 1024, 20);
    expect(answers).toHaveLength(20);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 413 });
      expect(ErrorBody.parse(JSON.parse((answer as { body: string }).body))).toMatchObject({ code: 'payload_too_large' });
    }
  });

  it.runIf(hasPython)("Python's http.client posting 3 MB to a checkout endpoint without a connection reads its refusal", async () => {
    const answers = await python(port, '/v1/refund', 3 * 1024 * 1024, 20);
    for (const answer of answers)
      expect(answer).toMatchObject({ status: expect.any(Number) as number, body: expect.stringContaining('"code"') });
  });

  it.runIf(hasPython)("Python's http.client with headers over the limit and a 3 MB body reads the 431", async () => {
    const answers = await python(port, '/webhooks/generic', 3 * 1024 * 1024, 20, true);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 431 });
      expect(ErrorBody.parse(JSON.parse((answer as { body: string }).body))).toMatchObject({ code: 'headers_too_large' });
    }
  });

  it.runIf(hasCurl)('curl posting 3 MB (with and without Expect: 100-continue) reads the 413 Error body', async () => {
    const file = path.join(dir, 'big.json');
    writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 0x61));
    const common = ['-H', 'Content-Type: application/json', '-H', 'X-Service-Vendor: acme-pos', '-H', 'X-Service-Store: store-001'];
    common.push('-H', `X-Service-Timestamp: ${Math.floor(Date.now() / 1000)}`, '-H', 'X-Service-Signature: v1=AAAA');
    for (const expectHeader of [[], ['-H', 'Expect:']]) {
      const answer = await curl([...common, ...expectHeader, '--data-binary', `@${file}`, `http://127.0.0.1:${port}/webhooks/generic`]);
      expect(answer.exit).toBe(0);
      expect(answer.status).toBe(413);
      expect(ErrorBody.parse(JSON.parse(answer.body))).toMatchObject({ code: 'payload_too_large' });
    }
  });

  it('undici posting 3 MB reads the 413, and the connection is not reused for a refused body', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      for (let i = 0; i < 5; i += 1) {
        const response = await request(`http://127.0.0.1:${port}/webhooks/generic`, {
          method: 'POST',
          dispatcher: agent,
          body: Buffer.alloc(3 * 1024 * 1024, 0x61),
          headers: {
            'content-type': 'application/json',
            'x-service-vendor': 'acme-pos',
            'x-service-store': 'store-001',
            'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
            'x-service-signature': 'v1=AAAA',
          },
        });
        expect(response.statusCode).toBe(413);
        expect(response.headers.connection).toBe('close');
        expect(ErrorBody.parse(await response.body.json())).toMatchObject({ code: 'payload_too_large' });
      }
    } finally {
      await agent.close();
    }
  });

  it('what is discarded is bounded: a client that keeps sending past 4× the body limit is cut off', async () => {
    const sent = await new Promise<{ bytes: number; closed: boolean; text: string }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let bytes = 0;
      let text = '';
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const stop = setTimeout(() => {
        socket.destroy();
        resolve({ bytes, closed: false, text });
      }, 15_000);
      const pump = () => {
        while (!socket.destroyed && bytes < 100 * BODY_LIMIT) {
          bytes += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      socket.on('data', (data) => (text += data.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(stop);
        resolve({ bytes, closed: true, text });
      });
      socket.on('connect', () => {
        socket.write(
          `POST /webhooks/generic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Vendor: acme-pos\r\nX-Service-Store: store-001\r\nX-Service-Timestamp: ${Math.floor(Date.now() / 1000)}\r\nContent-Length: ${100 * BODY_LIMIT}\r\n\r\n`,
        );
        pump();
      });
    });
    expect(sent.closed).toBe(true);
    expect(sent.bytes).toBeLessThan(20 * BODY_LIMIT);
    expect(sent.text).toMatch(/^HTTP\/1\.1 413 /);
  });
});
