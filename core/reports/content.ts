import { archetypes } from '#machines/content/index.js';
import type { Tier } from '#machines/protocol/common.js';

/** The archetype's tagline and three actions, or starter actions for the level labels. */
export function archetypeCopy(archetype: string): { tagline: string | null; actions: readonly string[] } {
  const found = archetypes.find((a) => a.name === archetype);
  if (found) return { tagline: found.tagline, actions: found.actions };
  return {
    tagline: null,
    actions: [
      'Hold a thirty-minute one-to-one with each person you lead this month, and ask what gets in their way.',
      'Write down the three decisions only you should make, and name who owns everything else.',
      'Ask three people who see you lead for one thing to keep doing and one thing to change.',
    ],
  };
}

/** What the report recommends next, by tier; null for a diagnostic graded without the survey. */
export function nextStep(tier: Tier | null): { title: string; body: string } {
  switch (tier) {
    case 'book_call':
      return {
        title: 'Book your 45-minute strategy session',
        body: 'Your results suggest you are ready for focused coaching. A $250 deposit, 100% refundable, holds your session; we will use the time to turn this report into a plan for the next six months.',
      };
    case 'homework':
      return {
        title: 'Start your homework',
        body: 'Work through the readings and exercises matched to your archetype over the next few weeks. They are built around the edge this report describes, and they make a strategy session far more useful when you are ready for one.',
      };
    case 'nurture':
      return {
        title: 'Join the free community',
        body: 'Keep building in the company of other leaders: the community shares practical resources and honest conversations. Retake the diagnostic in 6-12 months to see how you have moved.',
      };
    case null:
      return {
        title: 'Complete the qualification survey',
        body: 'Seven short questions turn this diagnostic into a recommendation: a strategy session, a homework programme or free resources, whichever fits where you are now.',
      };
  }
}
