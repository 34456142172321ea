import { answerCounterparts, type Mandate } from '../core/mandate.ts';

/** One term of a mandate in words for the principal, and the tools whose calls it governs. */
export interface TermLine {
  /** Stable name of the term, for pairing the same term before and after a change. */
  readonly term: string;
  readonly words: string;
  readonly tools: readonly string[];
}

const QUEUEING = ['ask_agent', 'answer_question', 'review_candidate', 'update_profile', 'file_evidence'];

function handles(list: readonly string[]): string {
  return list.map((h) => `@${h}`).join(', ');
}

function whom(list: readonly string[], act: 'Questions to' | 'Answers to', aside = ''): string {
  return list.length === 0
    ? `${act} anyone${aside} will wait for you.`
    : `${act} anyone but ${handles(list)}${aside} will wait for you.`;
}

/**
 * Every term of a mandate in words addressed to the principal ("questions to anyone but
 * @dave will wait for you"), in the order the mandate page lists them. The mandate page
 * shows them as they stand, and the preview compares them before and after a change.
 */
export function termLines(m: Mandate): TermLine[] {
  const consult = m.consult.counterparts;
  const answer = answerCounterparts(m);
  const daily = m.consult.dailyLimit;
  const days = m.denialWindowDays;
  return [
    {
      term: 'consult',
      words:
        consult === 'any' ? 'Your agents may ask any member without you.' : whom(consult, 'Questions to'),
      tools: ['ask_agent'],
    },
    {
      term: 'daily',
      words:
        daily === null
          ? 'Your agents may ask any number of questions a day.'
          : daily === 0
            ? 'Every question will wait for you (0 a day without you).'
            : `After ${daily} question${daily === 1 ? '' : 's'} a day (UTC), further questions will wait for you.`,
      tools: ['ask_agent'],
    },
    {
      term: 'answer',
      words:
        answer === 'any'
          ? 'Your agents may answer anyone who asks you.'
          : whom(
              answer,
              'Answers to',
              m.answer.counterparts === 'consult' ? ' (the people they may ask)' : '',
            ),
      tools: ['answer_question'],
    },
    {
      term: 'reviews',
      words: m.reviewsNeedApproval
        ? 'Reviews of candidates will wait for you.'
        : 'Your agents may review candidates without you.',
      tools: ['review_candidate'],
    },
    {
      term: 'inbox',
      words: m.profile.inboxNeedsApproval
        ? 'Opening or closing your inbox to questions will wait for you.'
        : 'Your agents may open or close your inbox to questions without you.',
      tools: ['update_profile'],
    },
    {
      term: 'name',
      words: m.profile.nameNeedsApproval
        ? 'A new display name will wait for you.'
        : 'Your agents may change your display name without you.',
      tools: ['update_profile'],
    },
    {
      term: 'text',
      words: m.profile.textNeedsApproval
        ? 'A new headline or bio will wait for you.'
        : 'Your agents may change your headline and bio without you.',
      tools: ['update_profile'],
    },
    {
      term: 'self-reports',
      words: m.selfReportsNeedApproval
        ? 'Self-reported evidence (a claim with no link behind it) will wait for you.'
        : 'Your agents may file self-reported evidence without you.',
      tools: ['file_evidence'],
    },
    {
      term: 'denials',
      words:
        days === 0
          ? 'A request you deny may be asked again at once.'
          : `A request you deny is refused at once if an agent asks it again within ${days} day${days === 1 ? '' : 's'}.`,
      tools: QUEUEING,
    },
  ];
}

/** The terms a change alters, as they will read after saving (with how they read before). */
export function termChanges(before: Mandate, after: Mandate): (TermLine & { was: string })[] {
  const old = new Map(termLines(before).map((l) => [l.term, l.words]));
  return termLines(after)
    .filter((l) => old.get(l.term) !== l.words)
    .map((l) => ({ ...l, was: old.get(l.term) ?? '' }));
}
