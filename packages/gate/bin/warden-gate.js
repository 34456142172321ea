#!/usr/bin/env node
// The gate's executable: the compiled bundle (built on prepack), so start-up is Node's own.
import { run } from '../dist/bin.js';

await run();
