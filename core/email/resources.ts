import type { ArchetypeName } from '#machines/content/index.js';
import type { HomeworkSource } from '#machines/protocol/assessment-flow.js';

/** A book or article worth the lead's time, and why for them. */
interface Reading {
  title: string;
  author: string;
  why: string;
}

/** A practice to try at work, with concrete steps. */
interface Exercise {
  title: string;
  how: string;
}

interface Catalogue {
  /** What the work is for this archetype, in one sentence. */
  focus: string;
  readings: [Reading, Reading, Reading];
  /** In programme order: week 1 to week 4 of the paid homework. */
  exercises: [Exercise, Exercise, Exercise, Exercise];
}

/** What one homework email offers. */
export interface ResourceSet {
  focus: string;
  readings: Reading[];
  exercises: Exercise[];
  /** True for the paid programme: the exercises are its weeks, in order. */
  programme: boolean;
}

const multipliers: Reading = {
  title: 'Multipliers',
  author: 'Liz Wiseman',
  why: 'Why capable leaders can shrink the intelligence of their teams, and the small habits that reverse it.',
};
const coachingHabit: Reading = {
  title: 'The Coaching Habit',
  author: 'Michael Bungay Stanier',
  why: 'Seven questions that replace telling with asking: the quickest way to stop being the answer to everything.',
};
const radicalCandor: Reading = {
  title: 'Radical Candor',
  author: 'Kim Scott',
  why: 'How to care personally and challenge directly at the same time, instead of choosing between them.',
};
const fearlessOrganization: Reading = {
  title: 'The Fearless Organization',
  author: 'Amy C. Edmondson',
  why: 'Why people go quiet around strong leaders, and what psychological safety looks like day to day.',
};
const decisionAudit: Exercise = {
  title: 'Decision audit',
  how: 'For five working days, log every decision you make in one line. On Friday mark each one: only I can make this, someone else could with context, or someone else should already own this. Hand over the whole last group.',
};

const byArchetype: Record<ArchetypeName, Catalogue> = {
  'High-Functioning Isolationist': {
    focus:
      'Your work now is to move from doing and deciding to multiplying: letting the team carry real weight so the results stop depending on you.',
    readings: [
      multipliers,
      {
        title: "Management Time: Who's Got the Monkey?",
        author: 'William Oncken Jr. and Donald L. Wass (Harvard Business Review)',
        why: 'A short classic on how problems climb back onto your desk, and how to hand them back.',
      },
      coachingHabit,
    ],
    exercises: [
      decisionAudit,
      {
        title: 'The monkey check',
        how: 'Each time someone brings you a problem this week, ask "What do you recommend?" before you say anything else, and agree who takes the next step. Count how many problems leave with the person who brought them.',
      },
      {
        title: 'An afternoon off the grid',
        how: 'Block one afternoon where you are unreachable. Beforehand, tell the team who decides what while you are away. Afterwards, ask what they handled, what they held back for you, and why.',
      },
      {
        title: 'One real handover',
        how: 'Pick one recurring responsibility you are proud of doing well and hand it over completely, decisions included. Agree how you will hear about progress, then do not check in outside that rhythm for a month.',
      },
    ],
  },
  'Command-First Driver': {
    focus:
      'Your decisiveness is an asset; the work is to turn compliance into commitment by building a team that thinks, challenges and decides with you.',
    readings: [
      {
        title: 'Turn the Ship Around!',
        author: 'L. David Marquet',
        why: 'A submarine captain on moving his crew from waiting for orders to saying "I intend to". Practical and vivid.',
      },
      {
        title: 'Humble Inquiry',
        author: 'Edgar H. Schein',
        why: 'The gentle art of asking instead of telling, from one of the founders of organisational psychology.',
      },
      fearlessOrganization,
    ],
    exercises: [
      {
        title: 'Speak last',
        how: 'In every decision meeting this week, hold your view until everyone else has spoken, and ask two people to make the strongest case against the direction you favour.',
      },
      {
        title: 'Intent, not instructions',
        how: 'Ask your team to stop asking permission and tell you "I intend to..." instead. Your only replies are a question or "very well". Count the intents you receive by Friday.',
      },
      {
        title: 'Pushback inventory',
        how: 'Ask a trusted peer and one direct report the same question: "When did someone last disagree with me, and what happened next?" Write their answers down word for word.',
      },
      {
        title: 'The question swap',
        how: 'Replace one instruction a day with "What would you do here, and why?" Keep a tally, and note the answers that were better than what you would have said.',
      },
    ],
  },
  'Trust-Builder Architect': {
    focus:
      'You already build trust; the next step is to hold people to a high standard without losing the warmth that makes your team work.',
    readings: [
      radicalCandor,
      {
        title: 'Crucial Conversations',
        author: 'Kerry Patterson, Joseph Grenny, Ron McMillan and Al Switzler',
        why: 'A tested method for the high-stakes conversations you may be postponing.',
      },
      {
        title: 'The Five Dysfunctions of a Team',
        author: 'Patrick Lencioni',
        why: 'A short fable on why trust without accountability stalls, and what productive conflict looks like.',
      },
    ],
    exercises: [
      {
        title: 'The postponed conversation',
        how: 'Name the one performance or direction conversation you have been putting off. Write the first two sentences you will say, and hold it within seven days.',
      },
      {
        title: 'Non-negotiables',
        how: 'Write the three standards your team must never drop. Share them at your next team meeting and ask where the team sees them slipping today.',
      },
      {
        title: 'One more checkpoint',
        how: 'Ask your team where your trust has turned into too little follow-up. Agree one checkpoint to add, put a date on it, and keep it.',
      },
      {
        title: 'Challenge in both directions',
        how: 'Give one piece of direct, specific challenge this week, and ask for one back: "What is one thing I do that makes your job harder?"',
      },
    ],
  },
  'Visionary Firebrand': {
    focus:
      'Your vision moves people; the work now is to turn it into a few finished things, so your energy builds momentum instead of whiplash.',
    readings: [
      {
        title: 'The 4 Disciplines of Execution',
        author: 'Chris McChesney, Sean Covey and Jim Huling',
        why: 'How to pick one wildly important goal and keep it alive against the whirlwind of everything else.',
      },
      {
        title: 'Essentialism',
        author: 'Greg McKeown',
        why: 'The disciplined pursuit of less: saying no to good ideas so the best ones get done.',
      },
      {
        title: 'Rocket Fuel',
        author: 'Gino Wickman and Mark C. Winters',
        why: 'Why visionaries need an integrator beside them, and how to make that partnership work.',
      },
    ],
    exercises: [
      {
        title: 'One wildly important goal',
        how: 'Choose the single outcome that matters most this quarter and write it as "from X to Y by when". Publicly pause two other initiatives to make room for it.',
      },
      {
        title: 'A stop-doing list',
        how: 'Before you announce any new idea, write down what you will stop doing to make room for it. Keep the list where your team can see it.',
      },
      {
        title: 'Find your integrator',
        how: 'Name the most disciplined operator on your team. Give them authority over the delivery plan of your main initiative, and agree a weekly thirty-minute review.',
      },
      {
        title: 'A pre-mortem',
        how: 'Imagine it is six months from now and your main initiative has failed. With your team, spend twenty minutes writing down every reason why, then turn the top three into changes to the plan this week.',
      },
    ],
  },
  'Fractured Identity Operator': {
    focus:
      "The work is to loosen the grip the role has on who you are: to see your own patterns, recover on purpose, and lead from steadiness rather than from the week's results.",
    readings: [
      {
        title: 'Immunity to Change',
        author: 'Robert Kegan and Lisa Laskow Lahey',
        why: 'A method for finding the hidden commitments that keep us stuck, even when we sincerely want to change.',
      },
      {
        title: 'Burnout: The Secret to Unlocking the Stress Cycle',
        author: 'Emily Nagoski and Amelia Nagoski',
        why: 'Why dealing with stress is different from dealing with its causes, and how to close the stress cycle.',
      },
      {
        title: "What Got You Here Won't Get You There",
        author: 'Marshall Goldsmith',
        why: 'The habits that served you earlier and now cost you, and how to change them with feedback.',
      },
    ],
    exercises: [
      {
        title: 'The two-sentence journal',
        how: 'For two weeks, end each working day with one sentence on how you showed up and one on how you felt. Then read them in one sitting and circle what repeats.',
      },
      {
        title: 'Good day, hard day',
        how: 'Ask two colleagues to describe you on a good day and on a hard day. Compare their descriptions with your journal.',
      },
      {
        title: 'A recovery block',
        how: 'Put one non-negotiable recovery block in your calendar each week and treat it like a client meeting: it does not move for work.',
      },
      {
        title: 'Your immunity map',
        how: 'Write one change you want to make, what you do instead, and what you would worry about if you did the opposite. The worry points to a hidden commitment: write it down as "I am committed to...".',
      },
    ],
  },
  'Reluctant Steward': {
    focus:
      'You carry responsibility well; the work now is to claim the authority that comes with it and shape direction instead of waiting for permission.',
    readings: [
      {
        title: 'Leadership on the Line',
        author: 'Ronald A. Heifetz and Marty Linsky',
        why: 'On leading when it is risky to do so, and staying in the game to do it again.',
      },
      {
        title: 'Dare to Lead',
        author: 'Brené Brown',
        why: 'Courage as a skill you can practise, including the uncomfortable part of taking a stand.',
      },
      {
        title: 'Playing Big',
        author: 'Tara Mohr',
        why: 'Practical tools for quieting the inner critic and speaking up before an idea feels finished.',
      },
    ],
    exercises: [
      {
        title: 'A one-page view',
        how: 'Write one page on where your team should be in a year, and why. Share it with your manager this month as a proposal, not a question.',
      },
      {
        title: 'Recommend, do not list',
        how: 'In your next leadership meeting, make one clear recommendation instead of laying out the options. Say "I recommend..." and stop.',
      },
      {
        title: 'The permission log',
        how: 'For one week, note each moment you wait for permission or certainty. Pick one of them and act without it.',
      },
      {
        title: 'Claim a decision',
        how: 'Find one decision made above you that you are best placed to make. Ask for it explicitly, with how you will report back.',
      },
    ],
  },
  'Disciplined Craftsman': {
    focus: 'Your execution is strong; the next step is to lift your eyes from how the work is done to where it is going and why.',
    readings: [
      {
        title: 'Good Strategy Bad Strategy',
        author: 'Richard Rumelt',
        why: 'What a real strategy contains (a diagnosis, a guiding policy and coherent actions) and how to spot the fluff.',
      },
      {
        title: 'Playing to Win',
        author: 'A.G. Lafley and Roger L. Martin',
        why: 'Five questions that turn strategy from an annual document into a set of real choices.',
      },
      {
        title: 'Thinking in Systems',
        author: 'Donella H. Meadows',
        why: 'A gentle primer on seeing the loops and delays behind the processes you run so well.',
      },
    ],
    exercises: [
      {
        title: 'The three-year hour',
        how: 'Spend one uninterrupted hour writing what your team should be doing in three years that it does not do now. Share it with one person you respect and ask what they would add.',
      },
      {
        title: 'An outside challenge',
        how: 'Invite someone from outside your function to challenge one of your processes for thirty minutes, and change one thing as a result.',
      },
      {
        title: 'Drop a rule',
        how: 'Ask your team which rule or routine they would drop if they could. Drop one, and watch what happens.',
      },
      {
        title: 'Your strategy kernel',
        how: "Write Rumelt's kernel for your area in three lines: the diagnosis (what is really going on), the guiding policy (your overall approach) and three coherent actions.",
      },
    ],
  },
  'Shadow Manipulator': {
    focus:
      'Your results are real; the work now is to build the kind of trust in which people tell you the truth, so the results stop costing you your best people.',
    readings: [
      {
        title: 'Leadership and Self-Deception',
        author: 'The Arbinger Institute',
        why: 'A short and surprisingly personal book on how we justify ourselves, and how it shows in the way we lead.',
      },
      {
        title: 'The Speed of Trust',
        author: 'Stephen M. R. Covey',
        why: 'Trust as a practical asset, with thirteen behaviours that build or erode it.',
      },
      {
        title: 'Extreme Ownership',
        author: 'Jocko Willink and Leif Babin',
        why: "Owning outcomes completely, including the ones that feel like someone else's fault.",
      },
    ],
    exercises: [
      {
        title: 'Own it first',
        how: 'The next time something goes wrong, say what your part was before anyone else speaks, and notice what happens to the conversation.',
      },
      {
        title: 'The safety question',
        how: 'Ask a colleague you trust, privately: "Do people feel safe bringing me bad news?" Thank them for the answer, and do not explain yourself.',
      },
      {
        title: 'Give the credit away',
        how: 'This week, give someone on your team public credit for a result you would normally present yourself.',
      },
      {
        title: 'A trust ledger',
        how: 'List the five people you work with most. For each, write whether you extend trust first or wait for it to be earned, and one way to extend a little more this month.',
      },
    ],
  },
};

/** For a result without one of the eight archetypes (the leadership-level labels, the canned result). */
const foundations: Catalogue = {
  focus:
    'The foundations come first: clarity about what you own, honest conversations with your team, and a habit of reflecting on how you lead.',
  readings: [
    {
      title: 'The Making of a Manager',
      author: 'Julie Zhuo',
      why: 'A clear, honest guide to the basics of leading a team: purpose, people and process.',
    },
    coachingHabit,
    radicalCandor,
  ],
  exercises: [
    {
      title: 'Listening one-to-ones',
      how: 'Hold a thirty-minute one-to-one with each person you lead. Ask "What is getting in your way?" and "What should I start, stop or keep doing?", and talk for less than a third of the time.',
    },
    decisionAudit,
    {
      title: 'A weekly review',
      how: 'Every Friday, write three lines: what went well in how you led, what you would do differently, and one thing to try next week.',
    },
    {
      title: 'Ask for feedback',
      how: 'Ask three people who see you lead for one thing you should keep doing and one thing you should change. Thank each of them, and act on one answer.',
    },
  ],
};

/**
 * The resources for a result's archetype: the paid homework is the full four-week programme with
 * all three readings; free resources are a lighter start of two readings and the first exercise.
 */
export function resourcesFor(archetype: string, source: HomeworkSource): ResourceSet {
  const catalogue = Object.hasOwn(byArchetype, archetype) ? byArchetype[archetype as ArchetypeName] : foundations;
  if (source === 'paid_homework') {
    return { focus: catalogue.focus, readings: [...catalogue.readings], exercises: [...catalogue.exercises], programme: true };
  }
  return { focus: catalogue.focus, readings: catalogue.readings.slice(0, 2), exercises: catalogue.exercises.slice(0, 1), programme: false };
}
