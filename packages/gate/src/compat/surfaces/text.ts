import { forPeople, hiddenCount } from '../../text/index.ts';
import { wordDiff } from '../text-diff.ts';
import { nudgesAdded } from './nudges.ts';
import type { RuleId } from '../rules.ts';
import type { Finding, Json } from '../types.ts';

/**
 * A changed text a model reads (a description, the server's instructions, a skill file): the
 * change itself, shown as a word diff with hidden characters made visible, and the signals a
 * reviewer looks for. Compatible unless descriptions are strict; a signal of hiding or of
 * talking to the model fails closed on its own, since that is what a rug-pull looks like.
 * Wording added to steer the model (nudges.ts) is a warning that quotes it.
 */
export function textChange(
  rule: RuleId,
  pointer: string,
  before: string,
  after: string,
  strict: boolean,
  args: Record<string, Json> = {},
): Finding[] {
  if (before === after) return [];
  const diff = wordDiff(forPeople(before, MAX_SHOWN), forPeople(after, MAX_SHOWN));
  const change: Finding = { rule, verdict: 'compatible', pointer, args: { ...args, diff } };
  const findings: Finding[] = [
    strict ? { ...change, verdict: 'breaking', reason: 'descriptions are strict' } : change,
  ];
  const hidden = hiddenCount(after) - hiddenCount(before);
  if (hidden > 0)
    findings.push({
      rule: 'text-hidden-characters-added',
      verdict: 'unknown',
      pointer,
      args: { count: hidden },
    });
  const oldUrls = new Set(urls(before));
  for (const url of new Set(urls(after))) {
    if (!oldUrls.has(url))
      findings.push({
        rule: 'text-url-added',
        verdict: 'compatible',
        pointer,
        args: { url: forPeople(url, 200) },
      });
  }
  const oldPhrases = new Set(addressedToModel(before));
  for (const phrase of new Set(addressedToModel(after))) {
    if (!oldPhrases.has(phrase))
      findings.push({
        rule: 'text-addressed-to-model',
        verdict: 'unknown',
        pointer,
        args: { phrase: forPeople(phrase, 120) },
      });
  }
  for (const { signal, excerpt, count } of nudgesAdded(before, after))
    findings.push({
      rule: 'text-steers-model',
      verdict: 'compatible',
      pointer,
      args: count > 1 ? { signal, excerpt, count } : { signal, excerpt },
    });
  return findings;
}

/** How much of one text a finding shows: enough for any real description, bounded for any input. */
const MAX_SHOWN = 20_000;
/** Signals are looked for in the first megabyte: a pattern scan stays linear and bounded. */
const MAX_SCANNED = 1_000_000;

const URL = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`)\]]+/giu;

function urls(text: string): string[] {
  return [...text.slice(0, MAX_SCANNED).matchAll(URL)].map((m) => m[0].replace(/[.,;:!?]+$/u, ''));
}

/**
 * Phrases that speak to the model rather than describe the tool: the shapes tool-poisoning
 * takes (overriding earlier instructions, hiding from the user, reaching for secrets, markup
 * pretending to be a system message). Matched case-insensitively, reported as found.
 */
const TO_THE_MODEL: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|other|system)\s+(?:instructions|prompts?|rules|messages)/giu,
  /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|notify)\s+(?:this\s+to\s+)?(?:the\s+)?user\b/giu,
  /\b(?:before|after|instead\s+of)\s+(?:using|calling|running)\s+(?:this|any|the|other)\b[^.\n]{0,40}\b(?:you\s+)?(?:must|should|always|first)\b/giu,
  /<\/?\s*(?:important|system|instructions?|secret|hidden)\s*>/giu,
  /\bsystem\s+prompt\b/giu,
  /\b(?:read|send|upload|include|pass|attach|forward)\b[^.\n]{0,60}(?:~\/\.ssh|id_rsa|\.env\b|\.aws|passwords?|api[_ -]?keys?|private\s+keys?|credentials)/giu,
  /\byou\s+are\s+now\b/giu,
];

function addressedToModel(text: string): string[] {
  const scanned = text.slice(0, MAX_SCANNED);
  return TO_THE_MODEL.flatMap((re) =>
    [...scanned.matchAll(re)].map((m) => m[0].toLowerCase().replace(/\s+/gu, ' ')),
  );
}
