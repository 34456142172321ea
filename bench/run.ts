// npm run bench: every benchmark, one after another, each reporting side-by-side ratios.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchServer } from './server.ts';

process.stdout.write('== Warden server ==\n' + (await benchServer()) + '\n');
if (existsSync(join(import.meta.dirname, 'compat.ts'))) {
  const { benchCompat } = (await import('./compat.ts')) as { benchCompat: () => Promise<string> };
  process.stdout.write('\n== Compat gate ==\n' + (await benchCompat()) + '\n');
}
