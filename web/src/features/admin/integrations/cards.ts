import type { IntegrationKey } from '#machines/protocol/admin/integrations.js';

/** The cards' words and links: the server stores only each card's switch and value. */
export type Category = 'Payments' | 'Scheduling' | 'Automation' | 'Marketing' | 'Communication' | 'Analytics';
export const CATEGORIES: Array<'All' | Category> = [
  'All',
  'Payments',
  'Scheduling',
  'Automation',
  'Marketing',
  'Communication',
  'Analytics',
];

export interface CardInfo {
  key: IntegrationKey;
  name: string;
  category: Category;
  description: string;
  features: string[];
  setupUrl: string;
  field?: { label: string; placeholder: string; type: 'url' | 'password' };
}

export const CARDS: CardInfo[] = [
  {
    key: 'payments',
    name: 'Stripe',
    category: 'Payments',
    description: 'Take the refundable $250 deposit and paid homework securely.',
    features: ['Hosted, PCI-compliant checkout', 'Refundable deposits', 'Signed payment webhooks'],
    setupUrl: 'https://dashboard.stripe.com/apikeys',
  },
  {
    key: 'scheduling',
    name: 'Calendly',
    category: 'Scheduling',
    description: 'The booking page qualified leads are sent to when they choose a call.',
    features: [
      'Linked from the book-a-call step',
      'Bookings and cancellations recorded on the lead',
      'Calendly or Cal.com, signed webhooks',
    ],
    setupUrl: 'https://calendly.com/event_types/user/me',
    field: { label: 'Booking URL', placeholder: 'https://calendly.com/your-name/intro-call', type: 'url' },
  },
  {
    key: 'automation',
    name: 'Zapier',
    category: 'Automation',
    description: 'Every lead event (captured, graded, paid, booked) is POSTed to your webhook, signed with HMAC-SHA256.',
    features: [
      'lead.captured, lead.graded, lead.paid, lead.booked, lead.booking_canceled, lead.not_booked, lead.regraded',
      'x-hf-signature header on every POST',
      'Retried with backoff on failure',
    ],
    setupUrl: 'https://zapier.com/apps/webhook/integrations',
    field: { label: 'Webhook URL', placeholder: 'https://hooks.zapier.com/hooks/catch/…', type: 'password' },
  },
  {
    key: 'email_marketing',
    name: 'Brevo',
    category: 'Marketing',
    description:
      'Confirmed leads (their address proven) join your Brevo list and are kept up to date; a lead who unsubscribes is unsubscribed there too.',
    features: ['Contacts added or updated on your list', 'TIER, ARCHETYPE and SOURCE attributes', 'Retried with backoff on failure'],
    setupUrl: 'https://app.brevo.com/settings/keys/api',
    field: { label: 'API key', placeholder: 'Paste your API key', type: 'password' },
  },
  {
    key: 'team_chat',
    name: 'Slack',
    category: 'Communication',
    description: 'A message in your channel whenever a lead qualifies for a call.',
    features: ['Alerts for book_call leads', 'Link to the lead in the admin', 'Incoming-webhook setup'],
    setupUrl: 'https://api.slack.com/messaging/webhooks',
    field: { label: 'Webhook URL', placeholder: 'https://hooks.slack.com/services/…', type: 'password' },
  },
  {
    key: 'analytics',
    name: 'Built-in analytics',
    category: 'Analytics',
    description: 'Funnel counts and lead activity, collected by this site itself.',
    features: ['Lead and assessment counts', 'No third-party scripts', 'Always on'],
    setupUrl: 'https://developer.mozilla.org/en-US/docs/Web/Privacy',
  },
];
