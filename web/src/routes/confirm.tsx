import { ResumePage, type FlowLink } from './resume.js';

const CONFIRM_LINK: FlowLink = {
  endpoint: '/api/leads/confirm',
  expiredText: 'To keep your results private, the confirmation link works for 7 days.',
  openingTitle: 'Confirming your email address',
  openingText: 'Opening your results...',
};

/**
 * `/confirm?token=…`, the one-time link of the "Was this you?" email (decision 0044): the server
 * proves the address, gives the assessment taken with it to its lead and makes it this browser's;
 * the modal then opens it at its results, as the resume link does.
 */
export function ConfirmPage() {
  return <ResumePage link={CONFIRM_LINK} />;
}
