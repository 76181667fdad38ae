import { assign, fromPromise, setup } from 'xstate';
import type { Notice } from '../protocol/common.js';
import { contactMessageSchema, type ContactField, type ContactFormEvent, type ContactMessage } from '../protocol/contact-form.js';

/** The contact form's toasts, word for word from the product copy. */
export const contactFormNotices = {
  success: {
    title: 'Message Sent Successfully!',
    description: "Thank you for reaching out. We'll respond within 24 hours. Check your email for confirmation.",
  },
  failure: {
    title: 'Error Sending Message',
    description: 'There was a problem sending your message. Please try again.',
  },
} as const satisfies Record<string, Notice>;

/** What the contact form holds: the typed values and the last outcome's toast. */
export interface ContactFormContext {
  values: Record<ContactField, string>;
  notice: Notice | null;
}

const emptyValues: Record<ContactField, string> = { name: '', email: '', company: '', message: '' };

/**
 * The contact form: idle -> sending -> success (form cleared) or failure (form kept).
 * The web provides `sendContactMessage`; the default rejects so that a missing implementation
 * shows the failure toast instead of pretending the message went out.
 */
export const contactFormMachine = setup({
  types: {
    context: {} as ContactFormContext,
    events: {} as ContactFormEvent,
  },
  actors: {
    sendContactMessage: fromPromise<void, ContactMessage>(() => Promise.reject(new Error('sendContactMessage is not provided'))),
  },
  actions: {
    edit: assign({
      values: ({ context, event }) => (event.type === 'EDIT' ? { ...context.values, [event.field]: event.value } : context.values),
      notice: null,
    }),
  },
  guards: {
    isSendable: ({ context }) => contactMessageSchema.safeParse(context.values).success,
  },
}).createMachine({
  id: 'contactForm',
  context: { values: emptyValues, notice: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        EDIT: { actions: 'edit' },
        SUBMIT: { guard: 'isSendable', target: 'sending' },
      },
    },
    sending: {
      invoke: {
        src: 'sendContactMessage',
        input: ({ context }) => contactMessageSchema.parse(context.values),
        onDone: {
          target: 'success',
          actions: assign({ values: emptyValues, notice: contactFormNotices.success }),
        },
        onError: { target: 'failure', actions: assign({ notice: contactFormNotices.failure }) },
      },
    },
    success: {
      on: { EDIT: { target: 'idle', actions: 'edit' } },
    },
    failure: {
      on: {
        EDIT: { target: 'idle', actions: 'edit' },
        SUBMIT: { guard: 'isSendable', target: 'sending' },
      },
    },
  },
});
