/**
 * The text without a leading byte order mark, which editors on Windows write at the start of a
 * UTF-8 file and JSON.parse refuses (RFC 8259 lets a parser ignore it, as VS Code does).
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses JSON with comments and trailing commas, as VS Code writes `mcp.json` and
 * `settings.json`. Comments and trailing commas are blanked outside strings (keeping
 * line breaks), and the rest goes to JSON.parse, so its error positions stay useful.
 */
export function parseJsonc(written: string): unknown {
  const text = withoutByteOrderMark(written);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = commentEnd(text, i);
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else if (c === ',' && /[}\]]/.test(text[nextSignificant(text, i + 1)] ?? '')) {
      out += ' ';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return i;
}

function commentEnd(text: string, start: number): number {
  if (text[start + 1] === '/') {
    const nl = text.indexOf('\n', start);
    return nl === -1 ? text.length : nl;
  }
  const close = text.indexOf('*/', start + 2);
  return close === -1 ? text.length : close + 2;
}

/** Index of the next character that is neither whitespace nor inside a comment. */
function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) i = commentEnd(text, i);
    else break;
  }
  return i;
}
