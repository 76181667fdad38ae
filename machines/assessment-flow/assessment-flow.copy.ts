import type { Notice } from '../protocol/common.js';

/** The name a community visitor gets when they leave it empty. */
export const COMMUNITY_MEMBER_NAME = 'Community Member';

/**
 * What a screen says where it would otherwise promise an email, in testing mode: a test lead gets
 * no email of any kind (docs/decisions/0036), so no screen promises one.
 */
export const TEST_LEAD_NO_EMAIL = 'Testing mode: this is a test lead, so no email is sent to it.';

/**
 * An unconfirmed attempt's results (decision 0044): the address typed is a known lead's and this
 * browser has not proven it, so nothing is sent there but one link, and nothing is kept until it is followed.
 */
export function unconfirmedAddressNotice(email: string | null) {
  return {
    title: 'Confirm your email address to keep these results',
    description: `We already know ${email ?? 'this address'}, so we sent it a link instead of your results. Follow it to keep them and to get them, and anything you choose next, by email.`,
  };
}

/** The flow's own messages, word for word from the product copy. */
export const assessmentFlowNotices = {
  captureFailed: { title: 'Error', description: 'Failed to start assessment. Please try again.' },
  emailCaptureFailed: { title: null, description: 'Something went wrong. Please try again.' },
  invalidEmail: { title: null, description: 'Please enter a valid email address' },
  nameRequired: { title: null, description: 'Please enter your name' },
  noLeadId: { title: null, description: 'No lead ID found. Please complete email capture first.' },
  paidHomeworkFailed: {
    title: 'Payment Confirmed',
    description: 'Payment successful but failed to send homework. Please contact support.',
  },
  freeResourcesFailed: { title: null, description: 'Failed to send resources. Please try again.' },
} as const satisfies Record<string, Notice>;
