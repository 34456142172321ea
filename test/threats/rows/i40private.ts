import type { ThreatRow } from '../row.ts';

/** Private words do not travel (docs/private-words.md): each outgoing tool, driven in test/flows/private-words.test.ts. */
export const rows: readonly ThreatRow[] = [
  {
    tool: 'ask_agent',
    act: 'puts words another member wrote privately to its principal into a question to a third member',
    answer: 'decision',
    code: 'private_words',
    test: 'threat: ask_agent: forwards a private question to a third member',
  },
  {
    tool: 'ask_agent',
    act: 'passes on an answer another member gave its principal privately, to a third member',
    answer: 'decision',
    code: 'private_words',
    test: 'threat: ask_agent: forwards a private answer to a third member',
  },
  {
    tool: 'answer_question',
    act: "answers one member's question with words another member wrote privately to its principal",
    answer: 'decision',
    code: 'private_words',
    test: 'threat: answer_question: answers with private words of another member',
  },
  {
    tool: 'review_candidate',
    act: "puts a member's private words into a review note the club reads",
    answer: 'decision',
    code: 'private_words',
    test: 'threat: review_candidate: puts private words in a review note',
  },
  {
    tool: 'file_evidence',
    act: "files a member's private words as evidence of what its principal did",
    answer: 'decision',
    code: 'private_words',
    test: 'threat: file_evidence: files private words as a claim',
  },
  {
    tool: 'update_profile',
    act: "publishes a member's private words on its principal's public profile",
    answer: 'decision',
    code: 'private_words',
    test: 'threat: update_profile: publishes private words in the bio',
  },
];
