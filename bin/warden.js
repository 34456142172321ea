#!/usr/bin/env node
// Warden's executable: loads the TypeScript sources through tsx, then hands
// argv to the CLI, whose return value is the documented exit code.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
