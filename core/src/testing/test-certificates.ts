import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestIssuer {
  /** PEM of this issuer's own certificate (the root's, or an intermediate's). */
  caPem: string;
  caKeyPem: string;
  /** `usage`: the extendedKeyUsage written (default serverAuth and clientAuth; 'none' writes none). */
  issue(
    commonName: string,
    options?: { days?: number; ca?: boolean; usage?: 'both' | 'serverAuth' | 'clientAuth' | 'none' },
  ): { certPem: string; keyPem: string };
  /** A CA certificate signed by this issuer that issues certificates in turn (leaf → intermediate → root). */
  intermediate(commonName: string): TestIssuer;
}

export interface TestPki extends TestIssuer {
  /** Remove the temporary directory. */
  dispose(): void;
}

function openssl(cwd: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

const CA_EXTENSIONS = ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'];

/** An issuer whose certificate and key are `<base>.pem` / `<base>.key` in `dir`; `next` numbers the files it writes. */
function issuerAt(dir: string, base: string, next: () => number): TestIssuer {
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  const sign = (name: string, subject: string, extensions: string[], days: number) => {
    openssl(
      dir,
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    );
    writeFileSync(path.join(dir, `${name}.ext`), extensions.join('\n'));
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${base}.pem`,
      '-CAkey',
      `${base}.key`,
      '-set_serial',
      String(1000 + next()),
      '-out',
      `${name}.pem`,
      '-days',
      String(days),
      '-extfile',
      `${name}.ext`,
    );
  };
  return {
    caPem: read(`${base}.pem`),
    caKeyPem: read(`${base}.key`),
    issue(commonName, options = {}) {
      const name = `leaf${next()}`;
      sign(
        name,
        `/CN=${commonName}`,
        [
          `subjectAltName=DNS:${commonName},DNS:localhost,IP:127.0.0.1`,
          options.ca ? 'basicConstraints=critical,CA:TRUE' : 'basicConstraints=CA:FALSE',
          ...{
            both: ['extendedKeyUsage=serverAuth,clientAuth'],
            serverAuth: ['extendedKeyUsage=serverAuth'],
            clientAuth: ['extendedKeyUsage=clientAuth'],
            none: [],
          }[options.usage ?? 'both'],
        ],
        options.days ?? 1,
      );
      return { certPem: read(`${name}.pem`), keyPem: read(`${name}.key`) };
    },
    intermediate(commonName) {
      const name = `int${next()}`;
      sign(name, `/CN=${commonName}`, CA_EXTENSIONS, 2);
      return issuerAt(dir, name, next);
    },
  };
}

/**
 * A throwaway CA made with the machine's openssl, for real TLS handshakes in tests: issue server
 * and client certificates signed by it, or by an intermediate CA it signs (`intermediate(name)`:
 * send `leaf.certPem + intermediate.caPem` as the client's chain). EC P-256 keys keep it fast.
 */
export function createTestPki(caName = 'Test Provider CA'): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-pki-'));
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${caName}`,
    ...CA_EXTENSIONS.flatMap((ext) => ['-addext', ext]),
  );
  let serial = 0;
  return { ...issuerAt(dir, 'ca', () => (serial += 1)), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
