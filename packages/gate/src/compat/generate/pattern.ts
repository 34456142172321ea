/**
 * Builds one string matching a simple regular expression (anchors, literals, classes such as
 * [a-z] or \d, groups of alternatives, and quantifiers). Returns undefined for anything else;
 * every value is validated afterwards, so a wrong guess costs a retry, never a wrong verdict.
 */
export function stringForPattern(pattern: string, salt = 0): string | undefined {
  let out = '';
  let i = 0;
  const classChar = (cls: string): string | undefined => {
    const m = /^([^\\\]])-([^\\\]])/.exec(cls);
    if (m?.[1]) return m[1];
    if (cls.startsWith('\\d')) return '0';
    if (cls.startsWith('\\w')) return 'a';
    const c = cls[0];
    return c && c !== '^' && c !== '\\' ? c : undefined;
  };
  let lastAtom: string | undefined;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if ((c === '^' && i === 0) || (c === '$' && i === pattern.length - 1)) {
      i += 1;
      continue;
    }
    let atom: string | undefined;
    if (c === '\\') {
      const n = pattern[i + 1];
      atom =
        n === 'd'
          ? String(salt % 10)
          : n === 'w'
            ? 'a'
            : n === 's'
              ? ' '
              : n && /[.\\/+*?()[\]{}|^$-]/.test(n)
                ? n
                : undefined;
      i += 2;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) return undefined;
      atom = classChar(pattern.slice(i + 1, end));
      i = end + 1;
    } else if (c === '(') {
      const end = pattern.indexOf(')', i);
      if (end < 0) return undefined;
      const body = pattern.slice(i + 1, end).replace(/^\?:/, '');
      if (body.includes('(')) return undefined;
      atom = stringForPattern(body.split('|')[0] ?? '', salt);
      i = end + 1;
    } else if (c === '.') {
      atom = 'a';
      i += 1;
    } else if ('*+?{|)]'.includes(c)) {
      if (c === '|') return out;
      const q = /^(\*|\+|\?|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
      if (!q || lastAtom === undefined) return undefined;
      const min = q[1] === '+' ? 1 : q[2] !== undefined ? Number(q[2]) : 0;
      out = out.slice(0, out.length - lastAtom.length) + lastAtom.repeat(min);
      i += q[0].length;
      lastAtom = undefined;
      continue;
    } else {
      atom = c;
      i += 1;
    }
    if (atom === undefined) return undefined;
    out += atom;
    lastAtom = atom;
  }
  return out;
}
