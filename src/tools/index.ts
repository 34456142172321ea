import { Registry, type ToolSpec } from '../core/registry.ts';
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
import { publishedOutput, queuedResult } from './schemas.ts';
import { listCandidates } from './vouch/list-candidates.ts';
import { reviewCandidate } from './vouch/review-candidate.ts';

export type { Caller, ToolContext } from './context.ts';

/** The club's 15 tools, in the order tools/list shows them. */
const TOOLS: ToolSpec<ToolContext, never>[] = [
  clubInfo,
  listMembers,
  getProfile,
  updateProfile,
  fileEvidence,
  listEvidence,
  listQuestions,
  answerQuestion,
  getMandate,
  listDecisions,
  askAgent,
  getConsultation,
  listCandidates,
  reviewCandidate,
  setMandate,
] as ToolSpec<ToolContext, never>[];

/** Registers every tool once, each publishing its results' shape in brief (the full shape still checks every result). */
export function buildRegistry(): Registry<ToolContext> {
  const registry = new Registry<ToolContext>();
  for (const spec of TOOLS.map(mayQueue))
    registry.register({ ...spec, publishedOutputSchema: publishedOutput(spec.outputSchema) });
  return registry;
}

/**
 * A tool that sends text out may have its call queued for the principal instead (private
 * words, tools/private-words.ts): its results then include the queued result, if its own
 * schema does not list it already.
 */
function mayQueue(spec: ToolSpec<ToolContext, never>): ToolSpec<ToolContext, never> {
  const branches = spec.outputSchema['oneOf'] as unknown[] | undefined;
  if (spec.words.sends.length === 0 || branches?.includes(queuedResult)) return spec;
  return { ...spec, outputSchema: { type: 'object', oneOf: [spec.outputSchema, queuedResult] } };
}
