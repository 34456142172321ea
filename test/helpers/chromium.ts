// Debian's Chromium, as every browser test and benchmark launches it (never a downloaded one).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Why browser tests cannot run here, or null when they can. Locally a missing
 * Chromium skips them with this message; in CI (CI=true) it is a failure instead.
 */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env['CI'] === 'true')
    throw new Error(`CI=true but ${CHROMIUM} is missing: install Debian's chromium`);
  return `Debian's chromium is not installed at ${CHROMIUM} (apt-get install chromium); browser tests skipped`;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}
