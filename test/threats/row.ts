/** One act a fully convinced agent could do with a tool, and the server's answer to it. */
export interface ThreatRow {
  /** The tool as served (its name), or 'transport' for acts on the MCP endpoint itself. */
  readonly tool: string;
  /** What the convinced agent does, in words a principal reads. */
  readonly act: string;
  /** The server's answer: refused outright, queued as the principal's decision, or allowed by a mandate term the principal chose (and visible in Activity). */
  readonly answer: 'refused' | 'decision' | 'term';
  /** The refusal or terms code the answer carries, when it has one. */
  readonly code?: string;
  /** The exact title of the test that drives the act through a real MCP client and checks the answer. */
  readonly test: string;
}
