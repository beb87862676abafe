import { existsSync } from 'node:fs';

/** Debian's Chromium, which playwright-core drives (`.ci/setup-browser` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Whether a browser test can run here. Outside CI a missing browser skips it; in CI it is a
 * failure, so a browser test can never be skipped silently there.
 */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: run .ci/setup-browser (CI must run ${what})`);
  return available;
}
