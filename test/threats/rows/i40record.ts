import type { ThreatRow } from '../row.ts';

/** Acts on the MCP endpoint and on the Activity record: limits per message, the record the principal's. */
export const rows: readonly ThreatRow[] = [
  {
    tool: 'transport',
    act: 'Sends its calls in JSON-RPC batches (2025-03-26, or no version header) to get more through than the rate limit lets single requests',
    answer: 'refused',
    code: 'rate_limited',
    test: 'threat: transport: flood file_evidence through JSON-RPC batches',
  },
  {
    tool: 'transport',
    act: 'Sends a batch of 100 calls in one POST, for an answer of unbounded size',
    answer: 'refused',
    code: 'batch_too_large',
    test: 'threat: transport: send a batch of 100 calls in one POST',
  },
  {
    tool: 'transport',
    act: 'Floods the principal’s Activity record with calls to push earlier ones (its own or another agent’s) out of it',
    answer: 'refused',
    code: 'rate_limited',
    test: 'threat: transport: evict the record by flooding it with calls',
  },
  {
    tool: 'ask_agent',
    act: 'Hides whom it wrote to in the Activity record by putting a long question before the addressee',
    answer: 'term',
    test: 'threat: ask_agent: hide the addressee after a long question',
  },
];
