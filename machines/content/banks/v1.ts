/*
 * Version 1.0.0: the earlier, likert-only diagnostic. It is kept as the first fallback because it
 * still measures the six weighted dimensions plus the three the diagnostic score needs, so a lead
 * graded on it gets a real profile; it has no ranking and no timed scenarios.
 */
import type { z } from 'zod';
import type { DiagnosticBank } from '../diagnostic-bank.js';

const instructions = 'Rate each statement from 1 (strongly disagree) to 5 (strongly agree), thinking of the last three months.';

/** Version 1.0.0 of the diagnostic (unvalidated; load it through loadDiagnosticBanks). */
export const bankV1 = {
  version: '1.0.0',
  title: 'Leadership Diagnostic',
  estimatedMinutes: '4-6',
  baseline: {
    id: 'baseline',
    label: 'How you lead',
    instructions,
    items: [
      { id: 'l1', prompt: 'My team knows which results matter most and hits them.', reverse: false, dimension: 'LER' },
      { id: 'l2', prompt: 'I give my team real decisions to make, not only tasks to finish.', reverse: false, dimension: 'DCR' },
      { id: 'l3', prompt: 'I often redo work my team has already finished.', reverse: true, dimension: 'TrustDelta' },
      { id: 'l4', prompt: 'When something goes wrong, I start by asking what my part in it was.', reverse: false, dimension: 'OwnershipFault' },
      { id: 'l5', prompt: 'My sense of worth rises and falls with how work is going.', reverse: true, dimension: 'DetachmentLoad' },
      { id: 'l6', prompt: 'I address friction in the team early instead of hoping it settles.', reverse: false, dimension: 'FrictionSensitivity' },
    ],
  },
  advanced_traits: {
    id: 'advanced_traits',
    label: 'How you hold up',
    instructions,
    items: [
      { id: 'l7', prompt: 'I plan my week around priorities rather than my inbox.', reverse: false, dimension: 'Discipline' },
      { id: 'l8', prompt: 'A bad week knocks my confidence for a long time.', reverse: true, dimension: 'Resilience' },
      { id: 'l9', prompt: 'I ask for feedback on my leadership and act on it.', reverse: false, dimension: 'SelfAware' },
      { id: 'l10', prompt: 'I trust people on my team to speak for us without me present.', reverse: false, dimension: 'TrustDelta' },
      { id: 'l11', prompt: 'I can explain where my team is heading beyond this year.', reverse: false, dimension: 'Vision' },
      { id: 'l12', prompt: 'I step in and take over when a deadline gets tight.', reverse: true, dimension: 'DCR' },
    ],
  },
} satisfies z.input<typeof DiagnosticBank>;
