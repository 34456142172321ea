import { forPeople } from '../../text/index.ts';

/**
 * Text rewritten to steer the model rather than describe: the shapes a description or the
 * server's instructions take when they start competing for the agent's attention. Each signal
 * is a few phrases a reviewer can read back; none is a verdict on its own, so a text change
 * that adds one is a warning that quotes the words (text-steers-model). Plain usage hints
 * ("Use this tool to read a file", "Call list_files first to find a path") match none of them.
 *
 * Prompt-injection shapes (ignore previous instructions, hide from the user, reach for secrets)
 * are text-addressed-to-model, and invisible characters text-hidden-characters-added: both fail
 * closed, and no signal here repeats them.
 */
const NUDGE_SIGNALS = {
  /** The tool claims a place in the order of every call, not just before the one it feeds. */
  'call-order': [
    /\b(?:always|first)\s+(?:call|use|invoke|run)\s+this\s+(?:tool|function|server)\b/giu,
    /\b(?:call|use|invoke|run)\s+this\s+(?:tool|function|server)\s+(?:first|before\s+(?:any|all|every)\b)/giu,
    /\bmust\s+(?:always\s+)?be\s+(?:called|used|invoked|run)\s+(?:first|before\s+(?:any|all|every)\b)/giu,
    /\bbefore\s+(?:calling|using|invoking|running)\s+any\s+other\s+(?:tools?|functions?|servers?)\b/giu,
    /\b(?:at\s+the\s+start|beginning)\s+of\s+(?:every|each)\s+(?:conversation|session|task|turn)\b/giu,
  ],
  /** The tool or server asks to be chosen over others, or for others to be left aside. */
  'prefer-this': [
    /\bprefer\s+(?:this|these|it|using\s+this)(?:\s+(?:tool|server|function)s?)?\s+(?:over|to|instead\s+of|rather\s+than)\b/giu,
    /\buse\s+this\s+(?:tool|server|function)\s+(?:instead\s+of|rather\s+than|over)\b/giu,
    /\b(?:do\s+not|don't|never)\s+use\s+(?:any\s+)?(?:other|another|alternative|built-?in)\s+(?:tools?|servers?|functions?|search)\b/giu,
    /\b(?:the\s+only|always\s+the)\s+(?:tool|server|source)\s+(?:you\s+)?(?:should|may|can|must)\b/giu,
    /\b(?:always|only)\s+use\s+this\s+(?:tool|server|function)\b/giu,
  ],
  /** The model is told its own knowledge is not to be trusted, so the tool is called instead. */
  'distrust-own-knowledge': [
    /\beven\s+(?:when|if)\s+you\s+(?:think|believe|already)\s+(?:you\s+)?know\b/giu,
    /\byour\s+(?:training\s+data|own\s+knowledge|knowledge|memory)\s+(?:may|might|is|could|can)\s+(?:not|be)\b/giu,
    /\b(?:instead\s+of|rather\s+than|do\s+not|don't|never)\s+(?:rely(?:ing)?\s+on|trust(?:ing)?)\s+your\s+(?:own\s+)?(?:training|knowledge|memory)\b/giu,
  ],
  /** Shouted labels and priority claims: emphasis aimed at the reader that weighs the text. */
  urgency: [
    /\b(?:IMPORTANT|CRITICAL|URGENT|MANDATORY)\s*[:!]/gu,
    // Capitals addressed to the reader, not an RFC 2119 "MUST" about a value or a protocol.
    /\b(?:[Yy]ou|YOU)\s+(?:MUST|SHALL|SHOULD|NEED\s+TO)\b/gu,
    /\b(?:ALWAYS|NEVER|MUST)\s+(?:call|use|invoke|run|tell|ask|say|respond|reply|trust|CALL|USE|INVOKE|RUN|TELL|ASK)\b/gu,
    /\b(?:highest|top|absolute|first)\s+priority\b/giu,
    /\b(?:at\s+all\s+costs|under\s+no\s+circumstances|without\s+exception)\b/giu,
  ],
  /** The model is told to act around the person it works for. */
  'bypass-user': [
    /\bwithout\s+(?:first\s+)?(?:asking|telling|informing|notifying|consulting|confirming\s+with)\s+(?:the\s+)?user\b/giu,
    /\b(?:do\s+not|don't|never)\s+(?:ask|wait\s+for)\s+(?:the\s+user\s+)?(?:for\s+)?(?:confirmation|permission|approval)\b/giu,
    /\b(?:regardless\s+of\s+(?:what\s+)?the\s+user|even\s+if\s+the\s+user\s+(?:says|asks|tells|requests|objects|declines))\b/giu,
  ],
  /** Orders on the model's conduct (what it calls, says, trusts), not on the arguments it sends. */
  'model-directive': [
    /\byou\s+(?:must|should\s+always|shall|are\s+required\s+to|have\s+to\s+always)\s+(?:always\s+)?(?:call|invoke|respond|reply|answer|tell|say|follow|obey|trust|treat|prioriti[sz]e|remember|defer)\b/giu,
    /\b(?:as\s+an?\s+(?:AI|assistant|LLM|language\s+model)\b|(?:the|an?|any)\s+(?:AI\s+)?(?:assistant|LLM|model)\s+(?:must|should|shall)\b)/giu,
  ],
} as const satisfies Record<string, readonly RegExp[]>;

export type NudgeSignal = keyof typeof NUDGE_SIGNALS;

/** One place a signal matched: the words matched (for comparing sides) and the sentence around them. */
export interface NudgeHit {
  signal: NudgeSignal;
  /** The matched words, lower-cased with spaces folded: what is compared between two texts. */
  phrase: string;
  /** The sentence around the match, bounded and with hidden characters made visible. */
  excerpt: string;
}

/** Signals are looked for in the first megabyte: every pattern is linear, the scan bounded. */
const MAX_SCANNED = 1_000_000;
/** Characters of context an excerpt reaches for on each side of a match, within its sentence. */
const REACH = 90;
/** The most an excerpt shows. */
const MAX_EXCERPT = 200;

/** Every match of every signal in one text, in the order of the table. */
export function nudgeHits(text: string): NudgeHit[] {
  const scanned = text.slice(0, MAX_SCANNED);
  const hits: NudgeHit[] = [];
  for (const [signal, patterns] of Object.entries(NUDGE_SIGNALS) as [NudgeSignal, readonly RegExp[]][]) {
    for (const re of patterns) {
      for (const m of scanned.matchAll(re)) {
        hits.push({
          signal,
          phrase: m[0].toLowerCase().replace(/\s+/gu, ' '),
          excerpt: excerpt(scanned, m.index, m.index + m[0].length),
        });
      }
    }
  }
  return hits;
}

/**
 * The signals a rewrite adds (nudges): per signal, the first match whose words the old text did not
 * hold (as often), and how many such matches there are. A signal the old text already raised
 * with the same words is not news; the same words once more are.
 */
export function nudgesAdded(
  before: string,
  after: string,
): { signal: NudgeSignal; excerpt: string; count: number }[] {
  const had = new Map<string, number>();
  for (const h of nudgeHits(before)) {
    const key = `${h.signal}\u0000${h.phrase}`;
    had.set(key, (had.get(key) ?? 0) + 1);
  }
  const added = new Map<NudgeSignal, { signal: NudgeSignal; excerpt: string; count: number }>();
  for (const h of nudgeHits(after)) {
    const key = `${h.signal}\u0000${h.phrase}`;
    const left = had.get(key) ?? 0;
    if (left > 0) {
      had.set(key, left - 1);
      continue;
    }
    const seen = added.get(h.signal);
    if (seen) seen.count++;
    else added.set(h.signal, { signal: h.signal, excerpt: h.excerpt, count: 1 });
  }
  return [...added.values()];
}

/** The match with the rest of its sentence, at most REACH characters each way, made readable. */
function excerpt(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && start - from < REACH && !/[.!?\n]/u.test(text[from - 1] as string)) from--;
  let to = end;
  while (to < text.length && to - end < REACH && !/[.!?\n]/u.test(text[to] as string)) to++;
  if (to < text.length && /[.!?]/u.test(text[to] as string)) to++;
  const cut = `${from > 0 && !/[.!?\n]/u.test(text[from - 1] as string) ? '…' : ''}${text.slice(from, to).trim()}${to < text.length && !/[.!?\n]/u.test(text[to - 1] as string) ? '…' : ''}`;
  return forPeople(cut, MAX_EXCERPT);
}
