/*
 * Count decision. The seed says "21 items" and "50 seconds total for questions 19 to 21",
 * but its own blocks make 22 screens: 8 baseline and 9 advanced-trait likert items, 1 priority
 * ranking and 4 vignettes. Its "21" counts the questions answered on a scale or by a choice and
 * leaves out the ranking, and its "50 seconds" is vig_dc's limit alone. What the visitor sees must
 * be true, so nothing here pretends otherwise:
 * - the progress total is the number of screens, flattenBank(bank).length = 22;
 * - the timed block is screens 19 to 22 (the four vignettes, after the ranking), and the 'Timed
 *   Questions Ahead' interstitial states their real total, 50 + 45 + 40 + 45 = 180 seconds.
 * Both are computed from this file by flattenBank() and timedSummary(), so copy cannot drift from
 * content. The estimate stays 8-10 minutes: 18 quick screens plus at most 3 timed minutes.
 *
 * Scoring notes for whoever edits this: every dimension is oriented so that higher is stronger;
 * an agreeing answer to a reverse item is evidence against its dimension. The first option of a
 * vignette is its timeout answer, so it is always a defensible middle course, never a trap.
 * dcr1, own1, b2, tr1, tr3 and scale_maintain are named by the contradiction rules in
 * machines/grading/contradictions.ts: change their meaning and those rules change with it.
 */
import type { z } from 'zod';
import type { DiagnosticBank } from '../diagnostic-bank.js';

const likertInstructions =
  'Rate how true each statement is of you today, from 1 (strongly disagree) to 5 (strongly agree). ' +
  'Answer for how you actually lead on an ordinary week, not how you would like to.';

const confidenceFollowup = {
  prompt: 'How confident are you in that choice?',
  scale: ['Not at all confident', 'Slightly confident', 'Moderately confident', 'Very confident', 'Completely confident'],
};

/** Version 2.0.0 of the diagnostic: the main bank (unvalidated; load it through loadDiagnosticBanks). */
export const bankV2 = {
  version: '2.0.0',
  title: 'Leadership Diagnostic',
  estimatedMinutes: '8-10',
  baseline: {
    id: 'baseline',
    label: 'Baseline: how you lead today',
    instructions: likertInstructions,
    items: [
      {
        id: 'b1',
        prompt: 'Everyone on my team could name the three outcomes we are accountable for this quarter.',
        reverse: false,
        dimension: 'LER',
      },
      {
        id: 'b2',
        prompt: 'When results slip, the cause is usually someone on my team not doing their part.',
        reverse: true,
        dimension: 'OwnershipFault',
      },
      {
        id: 'b3',
        prompt: 'I find it hard to put work problems down in the evenings and at weekends.',
        reverse: true,
        dimension: 'DetachmentLoad',
      },
      {
        id: 'b4',
        prompt: 'I notice tension between people on my team before it turns into open conflict.',
        reverse: false,
        dimension: 'FrictionSensitivity',
      },
      {
        id: 'b5',
        prompt: 'After a serious setback I am making clear decisions again within a day or two.',
        reverse: false,
        dimension: 'Resilience',
      },
      {
        id: 'b6',
        prompt: 'I protect time every week for the work that matters most, even when urgent requests pile up.',
        reverse: false,
        dimension: 'Discipline',
      },
      {
        id: 'b7',
        prompt: 'I can describe how my mood on a bad day changes the way my team behaves.',
        reverse: false,
        dimension: 'SelfAware',
      },
      {
        id: 'b8',
        prompt: 'My team could explain where we are heading in three years, and why it matters, without me in the room.',
        reverse: false,
        dimension: 'Vision',
      },
    ],
  },
  advanced_traits: {
    id: 'advanced_traits',
    label: 'Advanced traits: under pressure',
    instructions: likertInstructions,
    items: [
      {
        id: 'dcr1',
        prompt: 'I hand important decisions to my team and let them own the outcome, even when I would have chosen differently.',
        reverse: false,
        dimension: 'DCR',
      },
      {
        id: 'dcr2',
        prompt: 'If I want something done right, it is quicker to do it myself.',
        reverse: true,
        dimension: 'DCR',
      },
      {
        id: 'own1',
        prompt: 'When my team misses a target, I look first at what I did, or failed to do, that contributed.',
        reverse: false,
        dimension: 'OwnershipFault',
      },
      {
        id: 'tr1',
        prompt: 'I trust my team to make good calls without checking with me first.',
        reverse: false,
        dimension: 'TrustDelta',
      },
      {
        id: 'tr2',
        prompt: 'I tell my team about my own mistakes and doubts, not only my successes.',
        reverse: false,
        dimension: 'TrustDelta',
      },
      {
        id: 'tr3',
        prompt: "I need to review my team's work before it goes to a client or to senior leadership.",
        reverse: true,
        dimension: 'TrustDelta',
      },
      {
        id: 'dis1',
        prompt: 'I keep the small promises I make to my team, like a follow-up by Friday, as reliably as the big ones.',
        reverse: false,
        dimension: 'Discipline',
      },
      {
        id: 'res1',
        prompt: 'When a plan falls apart, it takes me a long time to get my footing back.',
        reverse: true,
        dimension: 'Resilience',
      },
      {
        id: 'sa1',
        prompt: 'Feedback about how I come across often surprises me.',
        reverse: true,
        dimension: 'SelfAware',
      },
    ],
  },
  priority_ranking: {
    id: 'priority_ranking',
    prompt:
      'A new quarter starts and you can give real attention to only some of these. Rank them from what gets your attention first to what gets it last.',
    items: [
      {
        id: 'capability',
        label: "Growing my team's capability so they need me less",
        weights: { DCR: 0.6, TrustDelta: 0.4 },
      },
      {
        id: 'results',
        label: "Hitting this quarter's numbers",
        weights: { LER: 0.6, Discipline: 0.2 },
      },
      {
        id: 'stakeholder',
        label: 'Keeping my boss and key stakeholders aligned',
        weights: { FrictionSensitivity: 0.6 },
      },
      {
        id: 'process',
        label: 'Tightening how we plan, track and review our work',
        weights: { Discipline: 0.6 },
      },
      {
        id: 'vision',
        label: 'Clarifying where we are heading and why',
        weights: { Vision: 0.8 },
      },
    ],
  },
  vignettes: {
    id: 'vignettes',
    label: 'Scenarios',
    instructions:
      'Four short situations. Choose what you would actually do first. Each one is timed; if time runs out, the first option is recorded for you.',
    items: [
      {
        id: 'vig_dc',
        prompt:
          "Your largest client wants a custom feature by Friday. Your lead engineer says building it will put the release at risk; your head of sales says the renewal depends on it. Both are waiting for your answer.",
        timeLimitSec: 50,
        options: [
          {
            id: 'dc_partial',
            label: 'Ask the engineer what smaller version could ship by Friday without touching the release, and offer the client that.',
            weights: { LER: 0.5, FrictionSensitivity: 0.5 },
          },
          {
            id: 'dc_convene',
            label: 'Put them in a room for 30 minutes with the criteria that matter, and ask them to bring you one joint recommendation.',
            weights: { DCR: 1, TrustDelta: 0.5, FrictionSensitivity: 0.5 },
          },
          {
            id: 'dc_decide_alone',
            label: 'Make the call yourself tonight and tell them both in the morning.',
            weights: { LER: 0.5, DCR: -0.5, TrustDelta: -0.5 },
          },
          {
            id: 'dc_escalate',
            label: 'Take it to your own boss so the decision sits with someone more senior.',
            weights: { OwnershipFault: -1, LER: -0.5 },
          },
        ],
        followup: confidenceFollowup,
      },
      {
        id: 'vig_heat',
        prompt:
          'Halfway through your all-hands, the product goes down. Your team is scrambling, a senior executive messages you "What is going on?", and a customer is complaining about it publicly.',
        timeLimitSec: 45,
        options: [
          {
            id: 'heat_check_in',
            label: 'Hand the all-hands to a colleague, join the incident channel and ask the incident lead what they need from you.',
            weights: { TrustDelta: 0.5, Resilience: 0.5 },
          },
          {
            id: 'heat_shield',
            label: 'Leave the fix to the incident lead; you take the executive and the customer so the team can work undisturbed.',
            weights: { DCR: 1, TrustDelta: 1, FrictionSensitivity: 0.5, DetachmentLoad: 0.5 },
          },
          {
            id: 'heat_take_over',
            label: 'Take over the incident call and direct the fix yourself.',
            weights: { LER: 0.5, DCR: -0.5, DetachmentLoad: -1 },
          },
          {
            id: 'heat_find_cause',
            label: 'Find out whose change caused it, so the executive gets a clear answer.',
            weights: { OwnershipFault: -1, TrustDelta: -0.5 },
          },
        ],
        followup: confidenceFollowup,
      },
      {
        id: 'vig_ownership',
        prompt:
          'A launch you sponsored has missed its date by three weeks. In the review your boss asks what happened. Your project lead is sitting next to you.',
        timeLimitSec: 40,
        options: [
          {
            id: 'own_recovery',
            label: 'Acknowledge the miss briefly and move straight to the recovery plan.',
            weights: { LER: 0.5, Resilience: 0.5 },
          },
          {
            id: 'own_i_own',
            label: 'Say the miss is yours: you approved the plan and missed the warning signs. Then outline the recovery.',
            weights: { OwnershipFault: 1, TrustDelta: 0.5, SelfAware: 0.5 },
          },
          {
            id: 'own_context',
            label: 'Explain the dependencies that slipped and the vendor who delivered late.',
            weights: { OwnershipFault: -0.5, SelfAware: -0.5 },
          },
          {
            id: 'own_lead_explains',
            label: 'Ask your project lead to walk through the details, since they know them best.',
            weights: { OwnershipFault: -1, TrustDelta: -0.5 },
          },
        ],
        followup: confidenceFollowup,
      },
      {
        id: 'vig_scale',
        prompt:
          'Your team will double from 6 to 12 people this quarter. Today you review every deliverable and sit in every client meeting.',
        timeLimitSec: 45,
        options: [
          {
            id: 'scale_playbook',
            label: 'Write down the quality bar and the review checklist first, then delegate reviews against them.',
            weights: { Discipline: 1, DCR: 0.5 },
          },
          {
            id: 'scale_leads',
            label: 'Name two people to lead sub-teams now and hand them the reviews, accepting some early misses.',
            weights: { DCR: 1, TrustDelta: 1, DetachmentLoad: 0.5, Vision: 0.5 },
          },
          {
            id: 'scale_maintain',
            label: 'Keep reviewing everything yourself until the new hires have proven themselves.',
            weights: { DCR: -1, TrustDelta: -0.5, DetachmentLoad: -1 },
          },
          {
            id: 'scale_hire_manager',
            label: "Hire an experienced manager to take over the team's day-to-day so you can focus on strategy.",
            weights: { Vision: 0.5, DCR: 0.5, OwnershipFault: -0.5 },
          },
        ],
        followup: confidenceFollowup,
      },
    ],
  },
} satisfies z.input<typeof DiagnosticBank>;
