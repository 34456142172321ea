import { compareSchemas } from './src/compat/index.ts';
import { schemaProblem } from './src/compat/validator.ts';
const D19 = 'https://json-schema.org/draft/2019-09/schema', D20 = 'https://json-schema.org/draft/2020-12/schema';
const t = (s: string) => ({ $schema: s, $recursiveAnchor: true, type: 'object', properties: { children: { type: 'array', items: { $recursiveRef: '#' } } } });
console.log(schemaProblem(t(D20)), schemaProblem(t(D19)));
console.log(JSON.stringify(compareSchemas(t(D20), { ...t(D20), title: 'x' }, 'input')));
console.log(JSON.stringify(compareSchemas(t(D19), t(D20), 'input')));
