import { browserEffect, serverEffect } from '../effect.js';
import type { DiagnosticAnswers, RecordedAnswer } from '../protocol/common.js';

/** What the standalone diagnostic asks the server to grade. */
export interface DiagnosticGradingRequest {
  answers: DiagnosticAnswers;
}

/**
 * The diagnostic's effects for its host. The server grades a standalone diagnostic (requestGrading
 * in core/flows/effects.ts); answerRecorded is for a browser that saves progress as it goes, and
 * needs nothing of the server, whose snapshot already holds the answer.
 */
export const diagnosticEffects = {
  answerRecorded: browserEffect<{ itemId: string; answer: RecordedAnswer }>(),
  requestGrading: serverEffect<DiagnosticGradingRequest>(),
};
