// The gate's benchmarks, each reporting side-by-side ratios. `npm run bench -- compat-real`
// (from the repository's root) runs only the parts named.
import { benchCompat } from './compat.ts';
import { benchCompatHostile } from './compat-hostile.ts';
import { benchCompatReal } from './compat-real.ts';
import { benchCompatSize } from './compat-size.ts';
import { benchProxy } from './proxy.ts';

export const GATE_BENCHES: [name: string, title: string, run: () => Promise<string>][] = [
  ['compat', 'Compat gate', benchCompat],
  ['compat-real', 'Compat gate on real published schemas', benchCompatReal],
  ['compat-hostile', 'Compat gate on hostile input, beside small counterparts', benchCompatHostile],
  ['compat-size', 'Compat gate: size against time, whole process', benchCompatSize],
  ['proxy', 'The gate proxy beside the same stdio server direct', benchProxy],
];
