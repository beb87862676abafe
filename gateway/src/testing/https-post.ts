import { request } from 'node:https';

export interface HttpsPostOptions {
  port: number;
  path: string;
  body: Buffer | string;
  /** CA that signed the gateway's server certificate. */
  serverCaPem: string;
  /** Client certificate and key for mTLS; none sent when absent. */
  client?: { certPem: string; keyPem: string } | undefined;
  headers?: Record<string, string>;
}

/** A real HTTPS POST (real TLS handshake) to 127.0.0.1; resolves with the status and parsed JSON body. */
export function httpsPost(options: HttpsPostOptions): Promise<{ statusCode: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: 'POST',
        path: options.path,
        servername: 'localhost',
        ca: options.serverCaPem,
        agent: false,
        ...(options.client ? { cert: options.client.certPem, key: options.client.keyPem } : {}),
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ statusCode: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
