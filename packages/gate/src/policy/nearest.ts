/** Edits (insert, delete, replace) between two short strings: how far a typo is from a name. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The names closest to a misspelt one, nearest first (at most `max`), for a one-line error. */
export function nearest(name: string, names: readonly string[], max = 3): string[] {
  const word = name.slice(0, 200);
  return names
    .map((n) => ({ n, d: distance(word, n) }))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, max)
    .map(({ n }) => n);
}
