import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestPki {
  caPem: string;
  caKeyPem: string;
  issue(commonName: string, options?: { days?: number; ca?: boolean }): { certPem: string; keyPem: string };
  /** Remove the temporary directory. */
  dispose(): void;
}

function openssl(cwd: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/**
 * A throwaway CA made with the machine's openssl, for real TLS handshakes in tests: issue server
 * and client certificates signed by it. EC P-256 keys keep it fast.
 */
export function createTestPki(caName = 'Test Provider CA'): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lg-pki-'));
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem',
    '-days', '2', '-subj', `/CN=${caName}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  let serial = 0;
  return {
    caPem: readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    caKeyPem: readFileSync(path.join(dir, 'ca.key'), 'utf8'),
    issue(commonName, options = {}) {
      serial += 1;
      const base = `leaf${serial}`;
      openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${commonName}`);
      writeFileSync(path.join(dir, `${base}.ext`), [
        `subjectAltName=DNS:${commonName},DNS:localhost,IP:127.0.0.1`,
        options.ca ? 'basicConstraints=critical,CA:TRUE' : 'basicConstraints=CA:FALSE',
        'extendedKeyUsage=serverAuth,clientAuth',
      ].join('\n'));
      openssl(dir, 'x509', '-req', '-in', `${base}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(1000 + serial),
        '-out', `${base}.pem`, '-days', String(options.days ?? 1), '-extfile', `${base}.ext`);
      return { certPem: readFileSync(path.join(dir, `${base}.pem`), 'utf8'), keyPem: readFileSync(path.join(dir, `${base}.key`), 'utf8') };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
