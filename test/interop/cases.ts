import type { Store } from '../../src/store/contract.ts';

/**
 * One success and one refusal for every tool an agent can see. Setups run against
 * the store before the call (a question waiting in the caller's inbox, …), so every
 * client and transport gets its own fresh state and the calls are independent.
 */
export interface ToolCase {
  /** Arguments of a call that succeeds (a queued request counts: it is not an error). */
  success: (ctx: CaseContext) => Promise<Record<string, unknown>>;
  /** Arguments of a call that is refused, and the refusal code expected. */
  refusal: { args: Record<string, unknown>; code: string };
}

export interface CaseContext {
  store: Store;
  /** The caller's principal (absent for the anonymous tier). */
  me?: { id: string; handle: string };
  /** A member who accepts questions, for the caller to consult. */
  other: { id: string; handle: string };
}

const invalid = { args: { bogus: 1 }, code: 'invalid_arguments' };
/** Candidates made for review_candidate's success, one per call. */
let candidates = 0;

export const CASES: Record<string, ToolCase> = {
  club_info: { success: async () => ({}), refusal: invalid },
  list_members: { success: async () => ({}), refusal: invalid },
  get_profile: {
    success: async ({ other }) => ({ handle: other.handle }),
    refusal: { args: { handle: 'nobody-here' }, code: 'not_found' },
  },
  update_profile: { success: async () => ({ headline: 'Reads the club rules' }), refusal: invalid },
  file_evidence: {
    // With its artifact, so it is filed (a self-report waits for the principal by default).
    success: async () => ({
      origin: 'document',
      claim: 'Chaired the spring meeting',
      artifact_ref: 'https://docs.example.org/minutes/spring',
    }),
    // The seed's refusal: a claim presented as an artifact with no pointer to it.
    refusal: { args: { origin: 'commit', claim: 'Shipped the release' }, code: 'claim_without_artifact' },
  },
  list_evidence: { success: async () => ({}), refusal: invalid },
  list_questions: {
    success: async () => ({ status: 'all' }),
    refusal: { args: { status: 'someday' }, code: 'invalid_arguments' },
  },
  answer_question: {
    success: async ({ store, me, other }) => {
      const q = await store.createQuestion({ askerId: other.id, targetId: me!.id, question: 'When?' });
      return { question_id: q.id, answer: 'On Thursday' };
    },
    refusal: { args: { question_id: 'q_none', answer: 'x' }, code: 'not_found' },
  },
  get_mandate: { success: async () => ({}), refusal: invalid },
  list_decisions: {
    success: async () => ({ status: 'all' }),
    refusal: { args: { decision_id: 'd_none' }, code: 'not_found' },
  },
  ask_agent: {
    success: async ({ other }) => ({ to: other.handle, question: 'Is the library open on Sunday?' }),
    refusal: { args: { to: 'nobody-here', question: 'Hello?' }, code: 'not_found' },
  },
  get_consultation: {
    success: async () => ({}),
    refusal: { args: { consultation_id: 'q_none' }, code: 'not_found' },
  },
  list_candidates: { success: async () => ({}), refusal: invalid },
  review_candidate: {
    // Reviews need the principal's approval by default: the success is a queued request. A
    // second review of one candidate is refused while the first waits, so each call reviews a
    // candidate of its own.
    success: async ({ store }) => {
      const handle = `cand-${++candidates}`;
      await store.createPrincipal({ handle, status: 'candidate', displayName: handle });
      return { handle, verdict: 'support', note: 'Helpful at every meeting' };
    },
    refusal: {
      args: { handle: 'nina', verdict: 'support', note: 'Not a candidate' },
      code: 'not_a_candidate',
    },
  },
};

/**
 * What a refused call could have written, for one principal: if a refusal changed
 * any of it, the refused request did something. Compared before and after each one.
 */
export async function footprint(store: Store, principalId: string | undefined): Promise<string> {
  if (!principalId) return '';
  const [me, evidence, asked, inbox, decisions, reviews] = await Promise.all([
    store.getPrincipalById(principalId),
    store.listEvidence(principalId),
    store.listQuestions({ askerId: principalId }),
    store.listQuestions({ targetId: principalId }),
    store.listDecisions(principalId),
    store.listReviews({ reviewerId: principalId }),
  ]);
  return JSON.stringify({
    profile: [me?.status, me?.acceptsQuestions, me?.updatedAt],
    evidence: evidence.length,
    asked: asked.length,
    answered: inbox.filter((q) => q.status === 'answered').length,
    decisions: decisions.length,
    reviews: reviews.length,
  });
}
