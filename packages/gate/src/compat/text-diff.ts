/**
 * A compact word diff, "[-removed-]{+added+}" inline, for description changes: descriptions are
 * what a model reads, so a reviewer must see exactly which words moved. A long unchanged run is
 * cut to the words beside each change with " … " between, as a unified diff keeps its context
 * lines: one sentence added to a long skill file shows as that sentence, not as the file.
 */
export function wordDiff(before: string, after: string, maxCells = 4_000_000): string {
  const whole = [before, after].map((s) => s.split(/(\s+)/).filter((t) => t !== '')) as [string[], string[]];
  const [allA, allB] = whole;
  // The words both ends share need no table: a sentence added to a long file costs that sentence.
  let head = 0;
  while (head < allA.length && head < allB.length && allA[head] === allB[head]) head++;
  let tail = 0;
  while (
    tail < allA.length - head &&
    tail < allB.length - head &&
    allA[allA.length - 1 - tail] === allB[allB.length - 1 - tail]
  )
    tail++;
  const a = allA.slice(head, allA.length - tail);
  const b = allB.slice(head, allB.length - tail);
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
  let same: string[] = allA.slice(0, head);
  let del = '',
    ins = '';
  const flush = (): void => {
    if (!del && !ins) return;
    out.push(...elided(same, out.length === 0, false));
    same = [];
    if (del) out.push(`[-${del}-]`);
    if (ins) out.push(`{+${ins}+}`);
    del = ins = '';
  };
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      // A space between two changed words belongs to the change: "[-a b-]{+c d+}", not
      // "[-a-]{+c+} [-b-]{+d+}". It stays shared when the words after it are shared too.
      const between =
        (del || ins) && /^\s+$/.test(a[i] as string) && !(a[i + 1] === b[j + 1] && i + 1 < a.length);
      if (between && i + 1 < a.length && j + 1 < b.length) {
        del += a[i];
        ins += b[j];
        i++;
        j++;
        continue;
      }
      flush();
      same.push(a[i] as string);
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
  same.push(...allA.slice(allA.length - tail));
  out.push(...elided(same, out.length === 0, true));
  return out.join('');
}

/** Tokens (words and the spaces between) kept on each side of a change. */
const CONTEXT = 16;

/**
 * An unchanged run as shown: whole when short or when nothing changed at all; otherwise the
 * tokens next to a change on each side (none on the side of the text's start or end), the rest
 * as " … ".
 */
function elided(run: string[], atStart: boolean, atEnd: boolean): string[] {
  if (atStart && atEnd) return run;
  const keepHead = atStart ? 0 : CONTEXT;
  const keepTail = atEnd ? 0 : CONTEXT;
  if (run.length <= keepHead + keepTail + CONTEXT) return run;
  const head = run.slice(0, keepHead).join('').trimEnd();
  const tail = run
    .slice(run.length - keepTail)
    .join('')
    .trimStart();
  return [head, head ? ' …' : '…', tail ? ' ' : '', tail];
}
