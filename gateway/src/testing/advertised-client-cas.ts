import { spawn } from 'node:child_process';

/**
 * The client CA names a TLS server advertises in its certificate request, as the machine's
 * `openssl s_client -connect 127.0.0.1:PORT -servername localhost </dev/null` prints them under
 * "Acceptable client certificate CA names" (e.g. `CN = ERP Provider CA`); [] for "No client
 * certificate CA names sent". Asynchronous: the server under test runs in this process.
 */
export function advertisedClientCas(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', () => {
      if (out.includes('No client certificate CA names sent')) return resolve([]);
      const lines = out.split('\n');
      const start = lines.findIndex((line) => line.startsWith('Acceptable client certificate CA names'));
      if (start < 0) return reject(new Error(`openssl s_client printed no client CA section:\n${out}`));
      const names: string[] = [];
      for (const line of lines.slice(start + 1)) {
        if (/^[A-Z][A-Za-z ]+:/.test(line) || line.trim() === '') break; // the next section ("Requested Signature Algorithms: …")
        names.push(line.trim());
      }
      resolve(names);
    });
  });
}
