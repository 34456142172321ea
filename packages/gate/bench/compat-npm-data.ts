// Where the extracted tools of the npm releases live, apart from the extractor, so reading them
// loads nothing of the MCP client (the benchmark's whole-process runs would pay for it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'npm-tools.json');

export interface Release {
  package: string;
  version: string;
  tools: unknown[];
}
