import type { ThreatRow } from '../row.ts';

/** The acts the mandate's terms answer, and denied-stays-denied; tests in test/threats/terms.test.ts. */
export const rows: readonly ThreatRow[] = [
  {
    tool: 'answer_question',
    act: 'answers a question from someone the principal does not let agents deal with',
    answer: 'decision',
    code: 'answer_counterpart_not_in_mandate',
    test: 'threat: answer_question: answers someone outside the answer term',
  },
  {
    tool: 'update_profile',
    act: "closes the principal's inbox to questions",
    answer: 'decision',
    code: 'profile_change_needs_approval',
    test: "threat: update_profile: closes the principal's inbox",
  },
  {
    tool: 'update_profile',
    act: "rewrites the principal's display name",
    answer: 'decision',
    code: 'profile_change_needs_approval',
    test: "threat: update_profile: rewrites the principal's display name",
  },
  {
    tool: 'update_profile',
    act: "rewrites the principal's headline or bio",
    answer: 'term',
    test: "threat: update_profile: rewrites the principal's headline under the term they chose",
  },
  {
    tool: 'file_evidence',
    act: 'files a self-report of what the principal did, at a stranger’s request',
    answer: 'decision',
    code: 'self_report_needs_approval',
    test: 'threat: file_evidence: files a self-report',
  },
  {
    tool: 'ask_agent',
    act: 'asks again someone the principal just said not to contact',
    answer: 'refused',
    code: 'denied_by_principal',
    test: 'threat: ask_agent: repeats a request the principal denied',
  },
  {
    tool: 'answer_question',
    act: 'answers again someone the principal said not to answer',
    answer: 'refused',
    code: 'denied_by_principal',
    test: 'threat: answer_question: repeats a request the principal denied',
  },
  {
    tool: 'review_candidate',
    act: 'reviews again a candidate the principal said not to review',
    answer: 'refused',
    code: 'denied_by_principal',
    test: 'threat: review_candidate: repeats a request the principal denied',
  },
  {
    tool: 'update_profile',
    act: 'closes the inbox again after the principal said no',
    answer: 'refused',
    code: 'denied_by_principal',
    test: 'threat: update_profile: repeats a request the principal denied',
  },
  {
    tool: 'file_evidence',
    act: 'files again a self-report the principal refused',
    answer: 'refused',
    code: 'denied_by_principal',
    test: 'threat: file_evidence: repeats a request the principal denied',
  },
];
