import { createContext, useContext } from 'react';
import type { ContactFormOutcome } from '#machines/protocol/contact-form.js';

/*
 * A contact form posted without JavaScript is answered by the server with the contact page drawn
 * with its outcome (server/routes/contact-form.ts). The page carries the outcome in a JSON <script>,
 * so a browser that does run the site's code hydrates exactly what was drawn.
 */

/** The id of the JSON <script> a drawn contact page carries its outcome in. */
export const CONTACT_OUTCOME_ELEMENT = 'hf-contact-outcome';

function embeddedOutcome(): ContactFormOutcome | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(CONTACT_OUTCOME_ELEMENT)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as ContactFormOutcome;
  } catch {
    return null;
  }
}

const embedded = embeddedOutcome();

/** The outcome a server render draws with (web/src/entry-server.tsx); none in the browser. */
export const RenderedContactOutcome = createContext<ContactFormOutcome | null>(null);

/** The outcome of the form posted without JavaScript that this page answers, if it answers one. */
export function useContactOutcome(): ContactFormOutcome | null {
  return useContext(RenderedContactOutcome) ?? embedded;
}
