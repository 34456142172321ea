import fs from 'node:fs';
import { createRequire } from 'node:module';
import { generator_for, initSync } from 'jsoncompat';

let ready = false;

/** jsoncompat's value generator (WebAssembly), an engine independent of Warden's own sampler. */
export function independentSamples(schema: unknown, count: number): unknown[] {
  if (!ready) {
    const wasm = createRequire(import.meta.url).resolve('jsoncompat/jsoncompat_wasm_bg.wasm');
    initSync({ module: fs.readFileSync(wasm) });
    ready = true;
  }
  let gen;
  try {
    gen = generator_for(JSON.stringify(schema));
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    try {
      out.push(JSON.parse(gen.generate_value(4)));
    } catch {
      // the generator gives up on some schemas; fewer samples, never a wrong one
    }
  }
  gen.free();
  return out;
}
