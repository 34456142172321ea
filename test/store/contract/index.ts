import { describe } from 'node:test';
import type { Backend } from './backend.ts';
import { activityContract } from './activity.ts';
import { consoleContract } from './console.ts';
import { reviewAndDecisionContract } from './decisions.ts';
import { executorContract } from './executor.ts';
import { limitContract } from './limits.ts';
import { mandateContract } from './mandates.ts';
import { oauthContract } from './oauth.ts';
import { pageContract } from './pages.ts';
import { principalContract } from './principals.ts';
import { privateWordsContract } from './private-words.ts';
import { evidenceAndQuestionContract } from './questions.ts';
import { tokenContract } from './tokens.ts';

export type { Backend } from './backend.ts';

/**
 * The one behaviour suite every store backend must pass. A backend's test file calls
 * this with a way to open fresh stores; nothing here knows which engine it talks to.
 */
export function storeContract(name: string, backend: Backend): void {
  void describe(`store contract: ${name}`, () => {
    executorContract(backend);
    principalContract(backend);
    tokenContract(backend);
    mandateContract(backend);
    evidenceAndQuestionContract(backend);
    reviewAndDecisionContract(backend);
    limitContract(backend);
    pageContract(backend);
    consoleContract(backend);
    oauthContract(backend);
    activityContract(backend);
    privateWordsContract(backend);
  });
}
