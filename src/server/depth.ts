/**
 * How deep a JSON body nests, found without parsing it: one pass over the bytes that
 * builds nothing and stops at the first level too deep. Brackets inside strings do not
 * count. Multi-byte UTF-8 never holds an ASCII byte, so scanning bytes is exact. It can
 * be fed a body chunk by chunk as it arrives, so a bracket flood is refused on its first
 * chunk rather than after a megabyte is read and buffered.
 */

/** No MCP message Warden serves nests beyond a dozen levels; 64 leaves room and stops bracket floods. */
export const MAX_JSON_DEPTH = 64;

/** The refusal of a body nested too deep: HTTP 400, JSON-RPC Invalid Request. */
export function tooDeep(): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: the body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; no MCP message needs that, so it was not parsed.`,
    },
  };
}

export class DepthWatch {
  #depth = 0;
  #inString = false;
  /** A backslash ended the last chunk inside a string: the next byte is escaped. */
  #escaped = false;

  constructor(readonly max: number = MAX_JSON_DEPTH) {}

  /** Reads the next bytes of the body; true as soon as it has nested deeper than `max`. */
  deeper(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return false;
    let depth = this.#depth;
    let inString = this.#inString;
    let i = 0;
    if (this.#escaped) {
      this.#escaped = false;
      i = 1;
    }
    for (; i < bytes.length; i++) {
      const c = bytes[i];
      if (inString) {
        if (c === 0x5c) {
          if (++i === bytes.length) this.#escaped = true;
        } else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > this.max) return true;
      } else if (c === 0x5d || c === 0x7d) depth--;
    }
    this.#depth = depth;
    this.#inString = inString;
    return false;
  }
}

/** Whether a whole body nests deeper than `max`. */
export function nestsDeeperThan(raw: Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  return new DepthWatch(max).deeper(raw);
}
