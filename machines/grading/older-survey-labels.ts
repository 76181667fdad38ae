import type { OlderSurvey } from './older-survey.js';

type Labels<Field extends keyof OlderSurvey> = { prompt: string; options: Record<OlderSurvey[Field], string> };

/**
 * The older survey's questions and answers in words, for the coach reading a lead's answers.
 * Typed over the schema, so every option the schema accepts has its label.
 */
export const OLDER_SURVEY_LABELS: { [Field in keyof OlderSurvey]: Labels<Field> } = {
  current_role: {
    prompt: 'Current role',
    options: {
      individual_contributor: 'Individual contributor',
      team_lead: 'Team lead',
      manager: 'Manager',
      director: 'Director',
      executive: 'Executive',
      founder: 'Founder or owner',
    },
  },
  team_size: {
    prompt: 'Team size',
    options: { none: 'No direct reports', '1-5': '1 to 5', '6-15': '6 to 15', '16-50': '16 to 50', '50+': 'More than 50' },
  },
  urgency_pain: {
    prompt: 'How urgent the leadership challenge is',
    options: { low: 'Low', moderate: 'Moderate', high: 'High', critical: 'Critical' },
  },
  commitment_level: {
    prompt: 'Commitment to working on it',
    options: { exploring: 'Exploring', interested: 'Interested', committed: 'Committed', all_in: 'All in' },
  },
  investment_readiness: {
    prompt: 'Readiness to invest',
    options: { not_now: 'Not now', considering: 'Considering it', ready: 'Ready' },
  },
  budget: { prompt: 'Budget for coaching', options: { low: 'Low', mid: 'Mid', high: 'High' } },
  authority: {
    prompt: 'Who decides on the spend',
    options: {
      N: 'N: nobody they can name',
      L: 'L: they can recommend it',
      M: 'M: they decide with their manager',
      D: "D: they decide on their organisation's budget",
      P: 'P: they pay personally',
    },
  },
  prior_coaching: { prompt: 'Coaching before', options: { none: 'None', some: 'Some', extensive: 'Extensive' } },
};
