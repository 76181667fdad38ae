/*
 * Recorded five-message Mirror conversations, the kind visitors actually write, each with what the
 * replies must get right about who and what the visitor named. Played by reflect.conversations.test.ts.
 */

export interface RecordedConversation {
  title: string;
  messages: readonly [string, string, string, string, string];
  closing: {
    /** Names the closing must use in its own voice. */
    names: readonly string[];
    /** Names (or phrases) the closing must not use in its own voice, outside the visitor's quoted words. */
    never: readonly string[];
    /** Which message "You began with “…”" quotes; null when the closing opens with the decision instead. */
    beganWith: number | null;
    /** Words of the decision the closing must quote, when the visitor stated one. */
    decision?: string;
  };
  /** What a middle reply (1 to 4) must or must not say in its own voice. */
  replies?: ReadonlyArray<{ turn: 1 | 2 | 3 | 4; says?: readonly string[]; never?: readonly string[] }>;
}

export const RECORDED_CONVERSATIONS: readonly RecordedConversation[] = [
  {
    title: 'a person named with the decision, the boss mentioned in passing later',
    messages: [
      'I have to decide whether to move Tom off the platform team. He has been with us six years.',
      'If I move him, the team loses its most experienced engineer, and Tom might take it personally.',
      'My boss mentioned it in passing last week, but it is my call.',
      'I have put this off before. Last time I waited until someone quit.',
      'I keep putting it off because the conversation feels awkward.',
    ],
    closing: { names: ['Tom'], never: ['your boss', 'the team'], beganWith: null, decision: 'move Tom off the platform team' },
  },
  {
    title: 'the decision named late, no person at all',
    messages: [
      'Things have been tense in my department for months.',
      'Everyone is tired and the roadmap keeps slipping.',
      'So I am thinking about splitting the group into two smaller squads.',
      'I have tried small fixes before and none of them stuck.',
      'I should have raised the workload issue months ago.',
    ],
    closing: { names: [], never: ['them', 'with your', 'with the'], beganWith: 0, decision: 'splitting the group into two smaller' },
  },
  {
    title: 'a brief first message, the decision and the person in the second',
    messages: [
      'hi',
      'I am deciding whether to give Priya the London account or keep it myself.',
      'Priya is ready but she has never led a client this big.',
      'Honestly I tend to hold on to things too long.',
      'I am worried about how the client will react.',
    ],
    closing: { names: ['Priya'], never: ['the client'], beganWith: null, decision: 'give Priya the London account' },
  },
  {
    title: 'pronouns only after the role is named',
    messages: [
      'I need to decide whether to give my manager honest feedback about the reorg.',
      'She announced it without asking any of us and people are upset.',
      'She never listens when I push back, so why bother.',
      'I avoided the same conversation last year too.',
      'It is my responsibility to say something, I know.',
    ],
    closing: { names: ['your manager'], never: [], beganWith: null },
    replies: [{ turn: 3, says: ['your manager'], never: ['they', 'them'] }],
  },
  {
    title: 'two names in the decision, one of them mentioned more often',
    messages: [
      "I'm torn between promoting Aisha and promoting Ben to team lead.",
      'Ben has been here longer and he expects it.',
      'Aisha is the stronger leader, but Ben keeps reminding me of his tenure.',
      'I think I reward loyalty over ability more than I admit.',
      'I am scared Ben will leave if I pick Aisha.',
    ],
    closing: { names: ['Aisha', 'Ben'], never: [], beganWith: null, decision: 'promoting Aisha and promoting Ben' },
  },
  {
    title: 'a name with an accent, blamed later with a pronoun',
    messages: [
      'Should I confront Siobhán about missing the client deadline?',
      'Siobhán is brilliant with customers but her reports are always late.',
      'Because of her, I spend my weekends fixing the numbers.',
      'Yes, I tend to cover for people rather than say something.',
      'I am worried she will resent me.',
    ],
    closing: { names: ['Siobhán'], never: ['Siobh'], beganWith: null, decision: 'confront Siobhán' },
    replies: [{ turn: 3, says: ['Siobhán'], never: ['they', 'them'] }],
  },
  {
    title: 'a name that ends in an accented letter',
    messages: [
      'Whether to tell Zoë she is not getting the promotion this year.',
      "Zoë has worked hard and I'm afraid she will quit.",
      'I promised her a path last spring, maybe too quickly.',
      'I guess I do this every time I want people to like me.',
      'I dread the conversation with Zoë tomorrow.',
    ],
    closing: { names: ['Zoë'], never: ['Zo'], beganWith: null, decision: 'tell Zoë' },
  },
  {
    title: 'a visitor who writes in lowercase, names included',
    messages: [
      'i need to decide whether to fire marcus. he missed three launches in a row',
      'if i fire him the team has to absorb his work right before the busy season',
      'my boss thinks i waited too long already',
      'honestly i tend to give people too many chances',
      'i am dreading the conversation with marcus',
    ],
    closing: { names: ['Marcus'], never: ['your boss', 'the team'], beganWith: null, decision: 'fire marcus' },
  },
  {
    title: 'a decision with no one else in it',
    messages: [
      'Whether to leave my job for a startup offer.',
      "I'm anxious about the pay cut and the risk.",
      'I suppose I have always played it safe.',
      'Every time I play it safe I regret it later.',
      'I realise I am allowed to take a risk.',
    ],
    closing: { names: [], never: ['them', 'with your', 'with the'], beganWith: null, decision: 'leave my job for a startup offer' },
  },
  {
    title: 'the same words again and again',
    messages: [
      "My co-founder wants to sell the company and I don't.",
      "My co-founder wants to sell the company and I don't.",
      'My co-founder wants to sell.',
      "I don't know. My co-founder wants to sell.",
      "My co-founder wants to sell the company and I don't.",
    ],
    closing: { names: ['your co-founder'], never: [], beganWith: 0 },
  },
  {
    title: 'a greeting first, a named report, the decision later and the CFO in passing',
    messages: [
      'Hello, thanks for having me.',
      'My team lead Dana keeps missing our one-on-ones.',
      'I am thinking about moving her to another team.',
      'I guess I let it slide for too long. Our CFO noticed before I did.',
      'She used to be my best performer.',
    ],
    closing: { names: ['Dana'], never: ['your CFO', 'your team lead'], beganWith: 1, decision: 'moving her to another team' },
    replies: [{ turn: 3, says: ['Dana'] }],
  },
  {
    title: 'a name in the first message, only pronouns after it',
    messages: [
      "I'm deciding whether to promote Priya to head of design.",
      'She would be great, but the rest of the team might feel passed over.',
      "She didn't hit her targets last quarter, and honestly that was not her fault.",
      'I tend to decide too fast when I like someone.',
      "I'm nervous about telling the others.",
    ],
    closing: { names: ['Priya'], never: ['the team', 'your team'], beganWith: null, decision: 'promote Priya to head of design' },
    replies: [{ turn: 3, says: ['Priya'], never: ['they', 'them'] }],
  },
];
