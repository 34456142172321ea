/**
 * A compact word diff, "[-removed-]{+added+}" inline, for description changes: descriptions are
 * what a model reads, so a reviewer must see exactly which words moved.
 */
export function wordDiff(before: string, after: string, maxCells = 4_000_000): string {
  const a = before.split(/(\s+)/).filter((t) => t !== '');
  const b = after.split(/(\s+)/).filter((t) => t !== '');
  if (a.length * b.length > maxCells) return `[-${before}-]{+${after}+}`;
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as Uint32Array,
      next = lcs[i + 1] as Uint32Array;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        a[i] === b[j] ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const out: string[] = [];
  let del = '',
    ins = '';
  const flush = (): void => {
    if (del) out.push(`[-${del}-]`);
    if (ins) out.push(`{+${ins}+}`);
    del = ins = '';
  };
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      out.push(a[i] as string);
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i]?.[j + 1] ?? 0) >= (lcs[i + 1]?.[j] ?? 0))) {
      ins += b[j];
      j++;
    } else {
      del += a[i];
      i++;
    }
  }
  flush();
  return out.join('');
}
