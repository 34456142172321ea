// npm run bench: every benchmark, one after another, each reporting side-by-side ratios.
import { benchCompat } from './compat.ts';
import { benchCompatReal } from './compat-real.ts';
import { benchServer } from './server.ts';

process.stdout.write('== Warden server ==\n' + (await benchServer()) + '\n');
process.stdout.write('\n== Compat gate ==\n' + (await benchCompat()) + '\n');
process.stdout.write(
  '\n== Compat gate on real published schemas ==\n' + (await benchCompatReal()) + '\n',
);
