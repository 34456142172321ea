/**
 * Every refusal the gate's proxy answers by itself, instead of forwarding a call: its stable
 * code and one line on when it is given. The proxy's refusals take their code from here, and a
 * host program (Warden) can list them beside its own without knowing the proxy's internals.
 */
export const GATE_REFUSALS = {
  tool_withheld: {
    doc: 'The tool changed against the lock in a breaking (or undecidable) way, so the proxy withholds it; the reason names the rule.',
  },
  tool_not_yet_judged: {
    doc: 'The tool is in the lock but no listing through the gate has shown its live definition, so it was never compared with the lock.',
  },
  batch_not_supported: {
    doc: 'A JSON-RPC batch was sent under an MCP revision that has no batches; nothing in it was forwarded.',
  },
} as const satisfies Record<string, { doc: string }>;

/** A code the gate's proxy refuses with. */
export type GateRefusalCode = keyof typeof GATE_REFUSALS;
