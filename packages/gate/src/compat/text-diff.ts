/**
 * A compact word diff, "[-removed-]{+added+}" inline, for description changes: descriptions are
 * what a model reads, so a reviewer must see exactly which words moved. A long unchanged run is
 * cut to the words beside each change with " … " between, as a unified diff keeps its context
 * lines: one sentence added to a long skill file shows as that sentence, not as the file.
 */
export function wordDiff(before: string, after: string, maxCells = 4_000_000): string {
  const a = before.split(/(\s+)/).filter((t) => t !== '');
  const b = after.split(/(\s+)/).filter((t) => t !== '');
  if (a.length * b.length > maxCells) return longDiff(a, b, maxCells) ?? `[-${before}-]{+${after}+}`;
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
  let same: string[] = [];
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
  out.push(...elided(same, out.length === 0, true));
  return out.join('');
}

/**
 * Two texts too long to compare whole (a skill file of a few thousand words): most edits are
 * local, and the words both share at their start and at their end are shown the same way
 * whether they are compared or not, as context beside the first and last change or as " … ".
 * So only the middle is compared, with enough of the shared words kept on each side for the
 * same context and elision; null when nothing can be set aside that way.
 */
function longDiff(a: string[], b: string[], maxCells: number): string | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  if (head === a.length && head === b.length) return a.join('');
  const keep = 2 * CONTEXT + 1;
  const [cutHead, cutTail] = [Math.max(0, head - keep), Math.max(0, tail - keep)];
  if (cutHead + cutTail === 0) return null;
  const inner = wordDiff(
    a.slice(cutHead, a.length - cutTail).join(''),
    b.slice(cutHead, b.length - cutTail).join(''),
    maxCells,
  );
  return `${cutHead > 0 && !inner.startsWith('…') ? '… ' : ''}${inner}${cutTail > 0 && !inner.endsWith('…') ? ' …' : ''}`;
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
