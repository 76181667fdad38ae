import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { mirrorMachine } from '#machines/mirror/mirror.machine.js';
import { DIAGRAM_DIR, namedImplementations, renderDiagrams, repoRoot, toMermaid } from './machines-diagram.js';

const STALE = 'is stale: run `npm run machines:diagram` and commit docs/machines/';

describe('machine diagrams', () => {
  const diagrams = renderDiagrams();

  it.each([...diagrams])('%s is committed and matches its machine', (path, expected) => {
    const file = join(repoRoot, path);
    expect(existsSync(file), `${path} is missing: run \`npm run machines:diagram\``).toBe(true);
    expect(readFileSync(file, 'utf8'), `${path} ${STALE}`).toBe(expected);
  });

  it('has no diagram left over from a machine that no longer exists', () => {
    const committed = readdirSync(join(repoRoot, DIAGRAM_DIR)).map((name) => join(DIAGRAM_DIR, name));
    expect(committed.filter((path) => !diagrams.has(path))).toEqual([]);
  });

  it('draws states, choices, guards and delays from the definition', () => {
    const mermaid = toMermaid(assessmentFlowMachine);
    expect(mermaid.startsWith('stateDiagram-v2\n  [*] --> opening')).toBe(true);
    expect(mermaid).toContain('state opening <<choice>>');
    expect(mermaid).toContain('results --> yes_flow: CONTINUE [hasTier(book_call)]');
    expect(mermaid).toContain('email_capture_editing --> diagnostic: CONTINUE_WITHOUT_SAVING [not isSurveyCompleted]');
    expect(toMermaid(mirrorMachine)).toContain('revealing --> complete: after replyDelay [endsConversation]');
  });

  it('lists the effects to provide, leaving out the machine’s own context updates', () => {
    expect(namedImplementations(assessmentFlowMachine).actions).toEqual([
      'createLead',
      'requestGrading',
      'startPayment',
      'sendHomework',
      'sendResults',
      'sendReceipt',
      'setTimer',
      'remindToBook',
      'remindToFinish',
      'clearStoredAssessment',
      'clearSavedAnswers',
    ]);
  });
});
