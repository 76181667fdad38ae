import type { z } from 'zod';
import type { DiagnosticBank } from '../diagnostic-bank.js';

/**
 * The last-resort bank of Four likert items on LER, DCR, OwnershipFault and
 * TrustDelta, used only when both bundled banks fail validation.
 */
export const builtinBank = {
  version: '0.0.0',
  title: 'Leadership Diagnostic',
  estimatedMinutes: '1-2',
  baseline: {
    id: 'baseline',
    label: 'Quick leadership check',
    instructions: 'Rate each statement from 1 (strongly disagree) to 5 (strongly agree).',
    items: [
      { id: 'fb_ler', prompt: 'My team reliably delivers the results we commit to.', reverse: false, dimension: 'LER' },
      { id: 'fb_dcr', prompt: 'I delegate decisions, not only tasks.', reverse: false, dimension: 'DCR' },
      { id: 'fb_own', prompt: 'When things go wrong, I look at my own part first.', reverse: false, dimension: 'OwnershipFault' },
      { id: 'fb_trust', prompt: 'I trust my team to do excellent work without my checking it.', reverse: false, dimension: 'TrustDelta' },
    ],
  },
} satisfies z.input<typeof DiagnosticBank>;
