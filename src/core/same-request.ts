import { createHash } from 'node:crypto';
import type { ProfilePart } from './terms.ts';

/**
 * What makes two queued requests "the same", so that one the principal denied stays
 * denied: the same act towards the same counterpart. The key is stored with each
 * decision and compared whole.
 *
 * - ask_agent: asking the same member (whatever the question's words);
 * - answer_question: answering the same asker (whichever of their questions);
 * - review_candidate: reviewing the same candidate (either verdict);
 * - update_profile: the same changes that wait (closing, or opening, the inbox; renaming,
 *   whatever the new name; a new headline or bio when they wait), whatever rides along;
 * - file_evidence: the same self-reported claim (case and spacing aside);
 * - any tool holding private words: passing the words of the same members through the same
 *   tool to the same recipients (whatever else the text says).
 */
export const sameRequest = {
  ask: (to: string): string => `ask_agent:@${to}`,
  answer: (asker: string): string => `answer_question:@${asker}`,
  review: (candidate: string): string => `review_candidate:@${candidate}`,
  profile: (parts: readonly ProfilePart[], opensInbox: boolean): string =>
    `update_profile:${[...parts]
      .sort()
      .map((p) => (p === 'accepts_questions' ? (opensInbox ? 'open_inbox' : 'close_inbox') : p))
      .join('+')}`,
  selfReport: (claim: string): string =>
    `file_evidence:manual:${createHash('sha256')
      .update(claim.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase())
      .digest('hex')
      .slice(0, 32)}`,
  privateWords: (tool: string, authors: readonly string[], recipients: readonly string[]): string =>
    `private_words:${tool}:${[...authors]
      .sort()
      .map((a) => `@${a}`)
      .join('+')}>${[...recipients]
      .sort()
      .map((r) => `@${r}`)
      .join('+')}`,
} as const;
