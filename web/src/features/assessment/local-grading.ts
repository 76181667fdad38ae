import { useEffect, useState } from 'react';
import type { AssessmentFlowContext } from '#machines/assessment-flow/assessment-flow.context.js';
import type { FlowResult } from '#machines/protocol/assessment-flow.js';

/**
 * Grades the flow's answers in the browser with the shared engine (loaded on demand, so the
 * modal does not carry the grading code until it is needed). If even that fails, the canned
 * result. Either way the result is marked fallback.
 */
export async function gradeLocally(context: Pick<AssessmentFlowContext, 'answers' | 'survey' | 'mirrorChat'>): Promise<FlowResult> {
  const grading = await import('#machines/grading/index.js');
  try {
    return grading.gradeAssessment(
      { answers: context.answers, survey: context.survey, mirrorChat: context.mirrorChat },
      { fallback: true },
    );
  } catch {
    return { ...grading.cannedResult(), fallback: true };
  }
}

/** A canned result: the server could not grade and sent the standard one (no archetype details). */
function isCanned(result: FlowResult): boolean {
  return result.fallback && result.archetypeDetails === null;
}

/**
 * The result to show: the flow's, except that a canned result from the server (its grading
 * failed) is replaced by the browser's own grading of the same answers (Fall
 * back to local grading; the canned result only when that cannot be used either).
 */
export function useDisplayResult(context: AssessmentFlowContext): {
  result: FlowResult | null;
  graded: 'server' | 'local';
  pending: boolean;
} {
  const result = context.result;
  const canGrade = result !== null && isCanned(result) && Object.keys(context.answers).length > 0;
  const [local, setLocal] = useState<{ from: FlowResult; graded: FlowResult } | null>(null);
  useEffect(() => {
    if (!canGrade || !result || local?.from === result) return;
    let live = true;
    void gradeLocally(context).then((graded) => {
      if (live) setLocal({ from: result, graded });
    });
    return () => {
      live = false;
    };
  }, [canGrade, result, local, context]);
  if (!result) return { result: null, graded: 'server', pending: false };
  if (canGrade)
    return local?.from === result ? { result: local.graded, graded: 'local', pending: false } : { result, graded: 'local', pending: true };
  return { result, graded: result.fallback ? 'local' : 'server', pending: false };
}
