import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { canAccept } from '../protocol/can-accept.js';
import { contactFormEventSchema, type ContactFormEvent, type ContactMessage } from '../protocol/contact-form.js';
import { contactFormMachine, contactFormNotices } from './contact-form.machine.js';

function startWith(send: (message: ContactMessage) => Promise<void>) {
  const sent: ContactMessage[] = [];
  const actor = createActor(
    contactFormMachine.provide({
      actors: {
        sendContactMessage: fromPromise<void, ContactMessage>(async ({ input }) => {
          sent.push(input);
          await send(input);
        }),
      },
    }),
  );
  actor.start();
  return { actor, sent };
}

function fill(actor: { send(event: ContactFormEvent): void }, values: Partial<ContactMessage>) {
  for (const [field, value] of Object.entries(values)) {
    actor.send(contactFormEventSchema.parse({ type: 'EDIT', field, value }));
  }
}

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', company: '', message: 'Hello there' };

describe('contactForm', () => {
  it('refuses to send until name, a valid email and a message are present', () => {
    const { actor } = startWith(async () => {});
    fill(actor, { name: 'Ada', email: 'not-an-email', message: 'Hi' });
    expect(canAccept(contactFormMachine, actor.getSnapshot(), { type: 'SUBMIT' })).toBe(false);
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('idle');

    fill(actor, { email: 'ada@example.com', message: '   ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('sends the trimmed message and clears the form on success', async () => {
    const { actor, sent } = startWith(async () => {});
    fill(actor, { ...valid, name: '  Ada Lovelace ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('sending');
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent).toEqual([valid]);
    expect(actor.getSnapshot().context.values).toEqual({ name: '', email: '', company: '', message: '' });
    expect(actor.getSnapshot().context.notice).toEqual(contactFormNotices.success);
  });

  it('keeps the form on failure and can try again', async () => {
    let fail = true;
    const { actor, sent } = startWith(() => (fail ? Promise.reject(new Error('smtp down')) : Promise.resolve()));
    fill(actor, valid);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.values).toEqual(valid);
    expect(actor.getSnapshot().context.notice?.title).toBe('Error Sending Message');

    fail = false;
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent).toHaveLength(2);
  });

  it('ignores edits while sending and returns to idle when typing after an outcome', async () => {
    let release: () => void = () => {};
    const { actor } = startWith(() => new Promise<void>((resolve) => (release = resolve)));
    fill(actor, valid);
    actor.send({ type: 'SUBMIT' });
    const sending = actor.getSnapshot();
    expect(canAccept(contactFormMachine, sending, { type: 'EDIT', field: 'name', value: 'x' })).toBe(false);
    release();
    await waitFor(actor, (s) => s.matches('success'));
    actor.send({ type: 'EDIT', field: 'name', value: 'B' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('fails rather than pretending to send when no sender is provided', async () => {
    const actor = createActor(contactFormMachine).start();
    fill(actor, valid);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('failure'));
  });

  it('rejects malformed events at the edge', () => {
    expect(contactFormEventSchema.safeParse({ type: 'EDIT', field: 'phone', value: '1' }).success).toBe(false);
    expect(contactFormEventSchema.safeParse({ type: 'SEND' }).success).toBe(false);
  });
});
