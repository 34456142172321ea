import { FORMAT_EXAMPLES, NOT_A_FORMAT } from '../generate/formats.ts';
import { stringForPattern } from '../generate/pattern.ts';
import type { Json, JsonObject } from '../types.ts';
import { compileSchema, formatKind, knownFormat } from '../validator.ts';
import type { Ctx } from './context.ts';
import { compareCount } from './counts.ts';
import { regexInclusion } from './regex-inclusion.ts';
import { firstThat, subValue } from './util.ts';

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** Strings the sub side probably accepts: its minimal value and a few variants. */
function candidates(ctx: Ctx, sub: JsonObject): string[] {
  const out: string[] = [];
  for (let salt = 0; salt < 4; salt++) {
    const v = subValue(ctx, sub, salt, 'string');
    if (typeof v === 'string') out.push(v);
  }
  return [...out, '', 'a', 'A', '0', ' ', '-', 'warden', NOT_A_FORMAT];
}

function ofLength(ctx: Ctx, sub: JsonObject, n: number): Json | undefined {
  const base = subValue(ctx, sub, 0, 'string');
  const s = typeof base === 'string' ? base : '';
  const chars = [...s];
  if (chars.length >= n) return chars.slice(0, n).join('');
  return s + (chars[chars.length - 1] ?? 'a').repeat(n - chars.length);
}

/** minLength, maxLength, pattern, format (asserted, as the validator asserts it). */
export function compareStrings(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const sized = (n: number): Json | undefined => ofLength(ctx, sub, n);
  compareCount(sub, sup, ctx, 'minLength', 'min', ['min-length-increased', 'min-length-decreased'], sized);
  compareCount(sub, sup, ctx, 'maxLength', 'max', ['max-length-decreased', 'max-length-increased'], sized);
  const pa = typeof sub.pattern === 'string' ? sub.pattern : undefined;
  const pb = typeof sup.pattern === 'string' ? sup.pattern : undefined;
  if (pa !== pb) {
    const args = ctx.oldNew<Json | undefined>(pa, pb);
    if (pa === undefined && pb !== undefined) {
      const local = (): Json | undefined => firstThat(candidates(ctx, sub), (v) => !matches(pb, v));
      ctx.emit(ctx.id('pattern-added', 'pattern-removed'), ['pattern'], args, local);
    } else if (pb === undefined) {
      ctx.emit(ctx.id('pattern-removed', 'pattern-added'), ['pattern'], args);
    } else if (pa !== undefined) {
      // Two regexes: inclusion is not decided, but a string the old one takes and the new one
      // refuses proves the break (the validator checks it with every other keyword).
      const [before, after] = [pa, pb];
      const tries = [...Array(8).keys()].map((salt) => stringForPattern(before, salt));
      const found = firstThat(
        [...tries, ...candidates(ctx, sub)],
        (v) => matches(before, v) && !matches(after, v),
      );
      // Else, for regexes of a simple shape, inclusion is decided outright, or a shortest string
      // the old one takes and the new one refuses is found.
      const decided = found === undefined ? regexInclusion(before, after) : undefined;
      const witness = decided && !decided.included ? decided.witness : found;
      if (decided?.included) ctx.emit('pattern-implied', ['pattern'], args);
      else if (witness === undefined) ctx.emit('pattern-changed', ['pattern'], args);
      else ctx.emit('pattern-rejects-value', ['pattern'], { ...args, value: witness }, () => witness);
    }
  }
  compareFormats(sub, sup, ctx);
}

/** The node's format unless it is one that constrains numbers only (those let every string through). */
function stringFormat(s: JsonObject): string | undefined {
  return typeof s.format === 'string' && formatKind(s.format) !== 'number' ? s.format : undefined;
}

function compareFormats(sub: JsonObject, sup: JsonObject, ctx: Ctx): void {
  const fa = stringFormat(sub);
  const fb = stringFormat(sup);
  if (fa === fb) return;
  const args = ctx.oldNew<Json | undefined>(fa, fb);
  if (fb === undefined) {
    ctx.emit(ctx.id('format-removed', 'format-added'), ['format'], args);
    return;
  }
  if (!knownFormat(fb) || (fa !== undefined && !knownFormat(fa))) {
    ctx.emit('format-unknown', ['format'], { format: knownFormat(fb) ? (fa as string) : fb });
    return;
  }
  const rejects = (v: string): boolean => !compileSchema({ type: 'string', format: fb })(v);
  if (fa === undefined) {
    ctx.emit(ctx.id('format-added', 'format-removed'), ['format'], args, () =>
      firstThat(candidates(ctx, sub), rejects),
    );
  } else {
    const local = (): Json | undefined => firstThat([FORMAT_EXAMPLES[fa], ...candidates(ctx, sub)], rejects);
    ctx.emit('format-changed', ['format'], args, local);
  }
}
