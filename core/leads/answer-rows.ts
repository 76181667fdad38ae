import type { DiagnosticAnswers } from '#machines/protocol/common.js';

/** A diagnostic's answers as diagnostics.answers keeps them: one object per answer, in the order answered. */
export function answerRows(answers: DiagnosticAnswers) {
  return Object.entries(answers).map(([itemId, answer]) => ({
    item_id: itemId,
    type: answer.type,
    value: answer.value,
    confidence: 'confidence' in answer ? (answer.confidence ?? null) : null,
    response_ms: answer.responseTime,
    timed_out: answer.timedOut ?? false,
  }));
}
