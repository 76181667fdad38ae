/*
 * Scores run 0-10 and each question's options share one weight (q1 0.35, q2 0.25, q3 0.25,
 * q4 0.15, summing to 1), so the survey score is simply 10 × Σ score × weight and a best answer
 * everywhere gives 100. Flags, not ids, tell the grading rules what an option means; the ids the
 * spec names carry them: not_ready and schedule_full 'disqualify', need_time and not_3_months
 * 'delay', validation 'validation', critical 'critical', ready_now, payment_terms,
 * start_immediately and start_30_days 'ready'.
 */
import type { z } from 'zod';
import type { QualificationSurvey } from './survey-schema.js';

/** The qualification survey as bundled (unvalidated; index.ts validates it at load). */
export const surveyData = {
  version: '1.0.0',
  questions: [
    {
      kind: 'choice',
      id: 'q1_investment',
      prompt: 'Our leadership coaching program is an investment of $25,000-50,000. Which best describes where you are?',
      required: true,
      options: [
        { id: 'ready_now', label: 'I am ready to invest now.', score: 10, weight: 0.35, flag: 'ready' },
        { id: 'payment_terms', label: 'I am ready to invest with a payment plan.', score: 8, weight: 0.35, flag: 'ready' },
        { id: 'need_time', label: 'I need a few months to secure the budget.', score: 4, weight: 0.35, flag: 'delay' },
        { id: 'not_ready', label: 'This is not an investment I can make.', score: 0, weight: 0.35, flag: 'disqualify' },
      ],
    },
    {
      kind: 'choice',
      id: 'q2_time',
      prompt: 'If we agree it is a fit, when could you start?',
      required: true,
      options: [
        { id: 'start_immediately', label: 'Immediately.', score: 10, weight: 0.25, flag: 'ready' },
        { id: 'start_30_days', label: 'Within the next 30 days.', score: 8, weight: 0.25, flag: 'ready' },
        { id: 'not_3_months', label: 'Not for at least 3 months.', score: 3, weight: 0.25, flag: 'delay' },
        {
          id: 'schedule_full',
          label: 'My schedule is too full to make room for coaching.',
          score: 0,
          weight: 0.25,
          flag: 'disqualify',
        },
      ],
    },
    {
      kind: 'choice',
      id: 'q3_urgency',
      prompt: 'How pressing is the leadership challenge that brought you here?',
      required: true,
      options: [
        {
          id: 'critical',
          label: 'Critical: it is costing us people, results or my health right now.',
          score: 10,
          weight: 0.25,
          flag: 'critical',
        },
        { id: 'important', label: 'Important: it has to be solved this year.', score: 7, weight: 0.25 },
        { id: 'emerging', label: 'Emerging: I can see it coming.', score: 4, weight: 0.25 },
        { id: 'exploring', label: 'Exploring: I am more curious than concerned.', score: 1, weight: 0.25 },
      ],
    },
    {
      kind: 'choice',
      id: 'q4_mindset',
      prompt: 'Which sentence sounds most like you?',
      required: true,
      options: [
        { id: 'challenge', label: 'I want to be challenged, even when it is uncomfortable.', score: 10, weight: 0.15 },
        { id: 'tools', label: 'I want practical tools I can use this week.', score: 7, weight: 0.15 },
        { id: 'skeptical', label: 'I am not sure coaching works, but I am willing to find out.', score: 5, weight: 0.15 },
        {
          id: 'validation',
          label: 'I mainly want confirmation that I am on the right track.',
          score: 2,
          weight: 0.15,
          flag: 'validation',
        },
      ],
    },
    {
      kind: 'text',
      id: 'q5_success',
      prompt: 'Imagine we have worked together for a year. What has changed, for you and for your team?',
      required: true,
      placeholder: 'The result you would point to, and how you would know.',
    },
    {
      kind: 'text',
      id: 'q6_context',
      prompt: 'What should we know about your situation before we talk?',
      required: false,
      placeholder: 'Your role, your organisation, what is going on right now.',
    },
    {
      kind: 'text',
      id: 'q7_team',
      prompt: 'Tell us about your team: its size, its shape, and the one working relationship that matters most right now.',
      required: false,
    },
  ],
} satisfies z.input<typeof QualificationSurvey>;
