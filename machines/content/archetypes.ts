import type { z } from 'zod';
import type { Archetypes } from './archetype-schema.js';

/** The eight archetypes (unvalidated; index.ts validates them at load). */
export const archetypeData = [
  {
    name: 'High-Functioning Isolationist',
    tagline: 'Delivers, and carries it alone.',
    narrative:
      'You get results, and people know it. But a great deal of those results run through you: you hold the decisions, the context and often the work itself. It feels efficient, and for a while it is. The cost shows up later, as a team that waits for you, a ceiling on how much can happen at once, and a quiet loneliness at the top that you may have stopped noticing.',
    strengths: ['High personal standards and follow-through', 'Reliable delivery under pressure'],
    risks: ['Becoming the bottleneck for every important decision', 'A team that stops growing because it is never stretched'],
    actions: [
      'List the five decisions you made last week and hand one of them, permanently, to someone on your team.',
      'In your next one-to-one, ask "What do you wish I would let you own?" and listen without defending.',
      'Block one afternoon this month where you are unreachable, and notice what the team handles without you.',
    ],
  },
  {
    name: 'Command-First Driver',
    tagline: 'Sets the pace and expects others to keep it.',
    narrative:
      'You lead from the front. You are decisive, clear about what matters and impatient with drift, and your teams rarely wonder what you want. The edge of that strength is that people learn to wait for direction rather than think for themselves, and disagreement goes quiet before it reaches you. Your next level is less about pushing harder and more about building a team that pushes with you.',
    strengths: ['Decisiveness when others hesitate', 'Clarity of priorities and standards'],
    risks: ['Compliance mistaken for commitment', 'Bad news reaching you late'],
    actions: [
      'In your next team meeting, speak last on the main decision and ask two people to argue the other side first.',
      'Replace one instruction this week with a question: "What would you do here, and why?"',
      'Ask a trusted peer how often people push back on you, and what happens when they do.',
    ],
  },
  {
    name: 'Trust-Builder Architect',
    tagline: 'Builds teams that work without them.',
    narrative:
      'You lead by building the conditions for others to do their best work: clear ownership, honest conversations and room to make calls. People grow around you, and your team holds up when you step away. The risk is that trust slides into tolerance, and that your care for the team makes hard calls about performance or direction slower than they should be.',
    strengths: ['Teams that own outcomes and develop quickly', 'Psychological safety that surfaces problems early'],
    risks: ['Avoiding necessary conflict to protect relationships', 'Being slow to act on underperformance'],
    actions: [
      'Name one performance conversation you have been postponing and hold it within seven days.',
      'Write down the three standards your team must never drop, and share them as non-negotiables.',
      'Ask your team where your trust has turned into too little follow-up, and agree one checkpoint to add.',
    ],
  },
  {
    name: 'Visionary Firebrand',
    tagline: 'Lights the fire; the follow-through is uneven.',
    narrative:
      'You see where things could go and you can make other people see it too. Your energy is contagious and your ideas move people. What tends to lag is the unglamorous part: turning the picture into priorities, rhythms and finished work. Teams around you can feel exhilarated one month and whiplashed the next, as new directions arrive before the last ones land.',
    strengths: ['A compelling picture of the future', 'Energy that attracts talent and sponsors'],
    risks: ['Too many initiatives, too few finished', 'A team exhausted by changing direction'],
    actions: [
      'Pick the one initiative that matters most this quarter and publicly pause two others.',
      'Pair with the most disciplined operator on your team and give them authority over the delivery plan.',
      'Before announcing your next idea, write down what you will stop doing to make room for it.',
    ],
  },
  {
    name: 'Fractured Identity Operator',
    tagline: 'The role has swallowed the person.',
    narrative:
      'Your sense of who you are has become tightly bound to how work is going. Good weeks feel like proof, bad weeks feel personal, and it is hard to see your own patterns from inside them. People around you may experience a different leader depending on the day. None of this is a flaw of character: it is what sustained pressure does without deliberate recovery and honest reflection.',
    strengths: ['Deep commitment and care about the work', 'Willingness to carry a great deal'],
    risks: ['Inconsistency your team has to manage around', 'Burnout that arrives before you notice it'],
    actions: [
      'For two weeks, end each day by writing one sentence on how you showed up and one on how you felt.',
      'Ask two colleagues to describe you on a good day and on a hard day, and compare the two.',
      'Put one non-negotiable recovery block in your calendar each week and treat it like a client meeting.',
    ],
  },
  {
    name: 'Reluctant Steward',
    tagline: 'Takes responsibility, hesitates to take the lead.',
    narrative:
      'You are conscientious and you own your part when things go wrong. People trust you because you do not pass the blame. But you hold back from shaping direction, waiting for permission or certainty that rarely comes. The team you have could go further with a leader who claims the authority you already carry.',
    strengths: ['Integrity and accountability', 'Steadiness that people rely on'],
    risks: ['Under-claiming authority and influence', 'Letting others set a direction you disagree with'],
    actions: [
      'Write a one-page view of where your team should be in a year and share it with your boss this month.',
      'In your next leadership meeting, make one clear recommendation instead of laying out the options.',
      'Notice one moment this week when you wait for permission, and act without it.',
    ],
  },
  {
    name: 'Disciplined Craftsman',
    tagline: 'Excellent at the work; the horizon is short.',
    narrative:
      'You run a tight ship. Commitments are kept, quality is high and your team knows how things are done. Your leadership edge is lifting your eyes from how the work is done to where it is going and why. Without that, teams led by craftsmen can become excellent at work that matters less each year.',
    strengths: ['Reliable execution and high quality', 'Clear processes that scale'],
    risks: ['Optimising the present at the expense of the future', 'A team that can follow a plan but not write one'],
    actions: [
      'Spend one hour this week writing what your team should be doing in three years that it does not do now.',
      'Invite someone from outside your function to challenge one of your processes, and change something.',
      'Ask your team which rule or routine they would drop if they could, and drop one.',
    ],
  },
  {
    name: 'Shadow Manipulator',
    tagline: 'Gets results through control, at a hidden cost.',
    narrative:
      'You get things done, and you know how to work the system to do it. But your answers suggest that when things go wrong, the cause is usually found elsewhere, and that trust is something others must earn before you extend it. Teams led this way deliver, but they also protect themselves, hide problems and leave. The results are real; so is the cost to the people producing them.',
    strengths: ['Political skill and the ability to make things happen', 'Focus on outcomes'],
    risks: ['People who protect themselves instead of telling you the truth', 'Attrition among your best people'],
    actions: [
      'In the next thing that goes wrong, say what your part was before anyone else speaks.',
      'Ask a colleague you trust, privately, whether people feel safe bringing you bad news, and believe the answer.',
      'Give someone on your team public credit this week for a result you would normally present yourself.',
    ],
  },
] satisfies z.input<typeof Archetypes>;
