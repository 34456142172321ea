/**
 * Rewrites `?` placeholders as PostgreSQL's `$1..$n`, left to right. A `?` inside a
 * string literal, quoted identifier, dollar-quoted body or comment is text, not a
 * parameter, so it is copied as is: rewriting it would silently change data.
 */
export function toPositional(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const skip = quotedEnd(sql, i);
    if (skip > i) {
      out += sql.slice(i, skip);
      i = skip;
    } else if (sql[i] === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += sql[i];
      i++;
    }
  }
  return out;
}

/** If a quoted or commented span starts at `i`, the index just past it (or the end); else `i`. */
function quotedEnd(sql: string, i: number): number {
  const c = sql[i];
  const next = sql[i + 1];
  if (c === "'") return closeQuote(sql, i + 1, "'", backslashEscapes(sql, i));
  if (c === '"') return closeQuote(sql, i + 1, '"', false);
  if (c === '-' && next === '-') return lineEnd(sql, i + 2);
  if (c === '/' && next === '*') return blockCommentEnd(sql, i + 2);
  if (c === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (tag && !isIdentChar(sql[i - 1])) {
      const close = sql.indexOf(tag[0], i + tag[0].length);
      return close < 0 ? sql.length : close + tag[0].length;
    }
  }
  return i;
}

/** E'…' strings treat a backslash as an escape; standard strings do not. */
function backslashEscapes(sql: string, quote: number): boolean {
  const prefix = sql[quote - 1];
  return (prefix === 'E' || prefix === 'e') && !isIdentChar(sql[quote - 2]);
}

/** Finds the closing quote; a doubled quote is an escaped one. */
function closeQuote(sql: string, from: number, quote: string, backslash: boolean): number {
  for (let j = from; j < sql.length; j++) {
    if (backslash && sql[j] === '\\') {
      j++;
    } else if (sql[j] === quote) {
      if (sql[j + 1] !== quote) return j + 1;
      j++;
    }
  }
  return sql.length;
}

function lineEnd(sql: string, from: number): number {
  const nl = sql.indexOf('\n', from);
  return nl < 0 ? sql.length : nl + 1;
}

/** PostgreSQL block comments nest. */
function blockCommentEnd(sql: string, from: number): number {
  let depth = 1;
  for (let j = from; j < sql.length; j++) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++;
      j++;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--;
      j++;
      if (depth === 0) return j + 1;
    }
  }
  return sql.length;
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}
