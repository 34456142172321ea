import { readFileSync } from 'node:fs';

/** Set by the build (the bundle has no package.json beside it); read from package.json in the sources. */
declare const WARDEN_GATE_VERSION: string | undefined;

/** The package version. */
export const VERSION: string =
  typeof WARDEN_GATE_VERSION === 'string'
    ? WARDEN_GATE_VERSION
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
        .version;
