/** The coaching offers the services page lists (and its structured data describes). */
export interface Service {
  name: string;
  subtitle: string;
  /** The positioning tag; 'Most Popular' marks the featured card. */
  tag: string;
  duration: string;
  description: string;
  features: readonly string[];
  featured?: boolean;
}

export const SERVICES: readonly Service[] = [
  {
    name: '1:1 Leadership Coaching',
    subtitle: 'Private coaching for founders, executives and senior managers',
    tag: 'Most Popular',
    duration: '3-12 months',
    featured: true,
    description:
      'A structured engagement built around the decisions in front of you. We start from your diagnostic, agree three outcomes that matter, and work on them in real time as your quarter unfolds.',
    features: [
      'Fortnightly 60-minute sessions, in person or by video',
      'Diagnostic at the start and a re-assessment at the midpoint',
      "Between-session messages for decisions that can't wait",
      'Stakeholder interviews with up to five colleagues',
    ],
  },
  {
    name: 'Team Leadership Development',
    subtitle: 'A leadership team that decides together',
    tag: 'For scaling teams',
    duration: '6-18 months',
    description:
      'For leadership teams of four to twelve who need to stop routing every decision through one person. We map how decisions really move through the team, then rebuild the habits around them.',
    features: [
      'Team diagnostic with an individual profile for each member',
      'Monthly team sessions plus 1:1 coaching for every leader',
      'A decision-rights map and a weekly operating rhythm',
      'Quarterly progress review with the sponsor',
    ],
  },
  {
    name: 'Organizational Leadership',
    subtitle: 'Leadership capability across the whole organisation',
    tag: 'For organisations in change',
    duration: '12-24 months',
    description:
      'For organisations going through growth, a merger or a restructure. A multi-level programme that aligns senior leaders, develops the next tier of managers and makes leadership behaviour measurable.',
    features: [
      'Organisation-wide leadership diagnostic and report',
      'Executive team coaching and manager cohorts',
      'Trust and culture indicators tracked over time',
      'Internal coaching capability that stays when we leave',
    ],
  },
  {
    name: 'Leadership Workshops',
    subtitle: 'Focused, practical sessions for teams and off-sites',
    tag: 'Fast start',
    duration: '1-3 days',
    description:
      'Interactive workshops on the skills leaders use every week: deciding under pressure, delegating without losing control, rebuilding trust after change. Built on your team’s real cases, not generic role-play.',
    features: [
      'Half-day to three-day formats, on site or remote',
      'A pre-work diagnostic for every participant',
      'Case studies drawn from your own organisation',
      'A follow-up session thirty days later',
    ],
  },
];
