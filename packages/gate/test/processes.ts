import fs from 'node:fs';

/** Processes whose command line holds `marker` (Linux's /proc; elsewhere the tests that need it skip). */
export function processesWith(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}
