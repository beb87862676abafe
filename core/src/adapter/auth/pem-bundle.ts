import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate in a PEM text (a bundle or a chain), in order. Throws on a block that is not a certificate. */
export function parsePemBundle(pem: string): X509Certificate[] {
  return (pem.match(PEM_BLOCK) ?? []).map((block) => new X509Certificate(block));
}

/** Why a PEM text is not a usable CA bundle (no certificate, or one that does not parse), or null. */
export function pemBundleProblem(pem: string): string | null {
  try {
    return parsePemBundle(pem).length > 0 ? null : 'holds no PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)';
  } catch (error) {
    return `holds a certificate that does not parse (${(error as Error).message})`;
  }
}
