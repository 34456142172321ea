import { Registry } from '../core/registry.ts';
import { askAgent } from './consult/ask-agent.ts';
import { getConsultation } from './consult/get-consultation.ts';
import type { ToolContext } from './context.ts';
import { fileEvidence } from './evidence/file-evidence.ts';
import { listEvidence } from './evidence/list-evidence.ts';
import { answerQuestion } from './inbox/answer-question.ts';
import { listQuestions } from './inbox/list-questions.ts';
import { getMandate } from './mandate/get-mandate.ts';
import { listDecisions } from './mandate/list-decisions.ts';
import { setMandate } from './mandate/set-mandate.ts';
import { updateProfile } from './profile/update-profile.ts';
import { clubInfo } from './public/club-info.ts';
import { getProfile } from './public/get-profile.ts';
import { listMembers } from './public/list-members.ts';
import { listCandidates } from './vouch/list-candidates.ts';
import { reviewCandidate } from './vouch/review-candidate.ts';

export type { Caller, ToolContext } from './context.ts';

/** The club's 15 tools, registered once, in the order tools/list shows them. */
export function buildRegistry(): Registry<ToolContext> {
  return new Registry<ToolContext>()
    .register(clubInfo)
    .register(listMembers)
    .register(getProfile)
    .register(updateProfile)
    .register(fileEvidence)
    .register(listEvidence)
    .register(listQuestions)
    .register(answerQuestion)
    .register(getMandate)
    .register(listDecisions)
    .register(askAgent)
    .register(getConsultation)
    .register(listCandidates)
    .register(reviewCandidate)
    .register(setMandate);
}
