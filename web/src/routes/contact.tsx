import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { contactFormMachine, contactFormNotices } from '#machines/contact-form/contact-form.machine.js';
import { contactFieldErrors, type ContactField, type ContactFormOutcome, type ContactMessage } from '#machines/protocol/contact-form.js';
import { Button, Card, Field, Section, useToast } from '../components/ui/index.js';
import { cx } from '../components/ui/cx.js';
import { post } from '../lib/api.js';
import { useContactOutcome } from '../lib/contact-outcome.js';
import { useSiteSettings } from '../lib/site-settings.js';

/** POST /api/functions/send-contact-email: stores the message and queues both emails. */
async function sendContactMessage(message: ContactMessage): Promise<void> {
  await post<{ ok: true; id: string }>('/api/functions/send-contact-email', {
    name: message.name,
    email: message.email,
    company: message.company || undefined,
    message: message.message,
  });
}

const NEXT_STEPS = [
  { title: 'We read every message', body: 'Your message comes straight to the coach, not to a sales team.' },
  { title: 'A reply within 24 hours', body: "On working days, usually sooner. You'll get an email confirmation straight away." },
  { title: 'A short call if it helps', body: 'If coaching looks like a fit, we suggest a 30-minute conversation. No pressure either way.' },
] as const;

const link = 'font-semibold text-ink underline decoration-ink/25 underline-offset-4 hover:decoration-ink';

/** The coach's own address and number from the site settings, for visitors who would rather not use the form. */
function DirectContact({ className }: { className: string }) {
  const { contact } = useSiteSettings();
  if (!contact.email && !contact.phone) return null;
  const rows: Array<[label: string, value: ReactNode]> = [];
  if (contact.email)
    rows.push([
      'Email',
      <a href={`mailto:${contact.email}`} className={link}>
        {contact.email}
      </a>,
    ]);
  if (contact.phone)
    rows.push([
      'Phone',
      <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`} className={link}>
        {contact.phone}
      </a>,
    ]);
  if (contact.location) rows.push(['Based in', contact.location]);
  if (contact.hours) rows.push(['Hours', contact.hours]);
  return (
    <section aria-labelledby="contact-direct" className={`border-t border-line pt-6 ${className}`}>
      <h2 id="contact-direct" className="font-serif text-xl text-ink">
        Prefer to write directly?
      </h2>
      <p className="mt-1 text-muted">{contact.name}</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-5 gap-y-2">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm font-semibold tracking-wider text-brass-deep uppercase">{label}</dt>
            <dd className="min-w-0 break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The outcome of a form posted without JavaScript, in the product's words (the toasts' copy): what a
 * toast says when the site's code runs, said in the page, where a reader without it sees it.
 */
function OutcomeNotice({ outcome }: { outcome: ContactFormOutcome }) {
  const notice = outcome.sent ? contactFormNotices.success : contactFormNotices.failure;
  return (
    <div
      role={outcome.sent ? 'status' : 'alert'}
      data-contact-outcome={outcome.sent ? 'sent' : 'refused'}
      className={cx('mt-6 rounded-xl border p-4', outcome.sent ? 'border-success/40 bg-sand' : 'border-danger/40 bg-danger-soft')}
    >
      <p className={cx('font-semibold', outcome.sent ? 'text-success' : 'text-danger')}>{notice.title}</p>
      <p className="mt-1 text-sm leading-relaxed text-muted">{notice.description}</p>
    </div>
  );
}

/**
 * `/contact`: the contact form, run by the shared contact-form machine. With the site's code it is
 * sent by fetch; without it the browser posts it to /contact, and the server answers this page
 * drawn with the outcome (kept until the next edit).
 */
export function ContactPage() {
  const { toast } = useToast();
  const machine = useMemo(
    () => contactFormMachine.provide({ actors: { sendContactMessage: fromPromise(({ input }) => sendContactMessage(input)) } }),
    [],
  );
  const drawnOutcome = useContactOutcome();
  const [outcome, setOutcome] = useState(drawnOutcome);
  // a refused form is drawn as it was sent
  const [state, send] = useMachine(
    machine,
    drawnOutcome && !drawnOutcome.sent
      ? { snapshot: machine.resolveState({ value: 'idle', context: { values: drawnOutcome.values, notice: null } }) }
      : undefined,
  );
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>(drawnOutcome?.errors ?? {});
  const values = state.context.values;
  const sending = state.matches('sending');

  // the machine sets a notice when a send settles: success clears the form, failure keeps it
  const notice = state.context.notice;
  const failed = state.matches('failure');
  useEffect(() => {
    if (notice) toast({ title: notice.title, description: notice.description, variant: failed ? 'destructive' : 'success' });
  }, [notice, failed, toast]);

  const edit = (field: ContactField, value: string) => {
    setOutcome(null);
    setErrors((current) => ({ ...current, [field]: undefined }));
    send({ type: 'EDIT', field, value });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    const found = contactFieldErrors(values);
    const first = (['name', 'email', 'company', 'message'] as const).find((field) => found[field]);
    if (first) {
      setErrors(found);
      document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    send({ type: 'SUBMIT' });
  };

  return (
    <>
      <title>Contact | Leadership Coaching</title>
      <Section tone="sand" spacing="hero">
        {/* phones: introduction, form, then what happens next; wide screens: the form beside both */}
        <div className="grid gap-12 lg:grid-cols-[1fr_1.2fr] lg:gap-x-16">
          <div className="lg:col-start-1 lg:row-start-1">
            <p className="mb-4 flex items-center gap-3 text-xs font-semibold tracking-[0.22em] text-brass-deep uppercase">
              <span aria-hidden="true" className="h-px w-8 bg-brass" />
              Contact
            </p>
            <h1 className="font-serif text-4xl text-balance text-ink sm:text-display">Let's talk about what you're leading.</h1>
            <p className="mt-6 text-lg leading-relaxed text-muted">
              A question about coaching, a team you're worried about, or a workshop you're planning: tell us a little about it and we'll get
              back to you personally.
            </p>
          </div>
          <Card padding="lg" className="self-start lg:col-start-2 lg:row-span-2 lg:row-start-1">
            <h2 className="font-serif text-2xl text-ink">Send a message</h2>
            <p className="mt-1 text-sm text-muted">All fields are required unless marked optional.</p>
            {outcome && <OutcomeNotice outcome={outcome} />}
            {/* posted to the server as it is where the site's code does not run: never a GET, which would put the message in the address */}
            <form method="post" action="/contact" className="mt-7 flex flex-col gap-5" onSubmit={onSubmit} aria-busy={sending}>
              <div className="grid gap-5 sm:grid-cols-2">
                <Field
                  id="contact-name"
                  label="Name"
                  name="name"
                  autoComplete="name"
                  required
                  value={values.name}
                  error={errors.name}
                  onChange={(e) => edit('name', e.target.value)}
                />
                <Field
                  id="contact-email"
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={values.email}
                  error={errors.email}
                  onChange={(e) => edit('email', e.target.value)}
                />
              </div>
              <Field
                id="contact-company"
                label="Company/Organization"
                name="company"
                autoComplete="organization"
                optional
                value={values.company}
                onChange={(e) => edit('company', e.target.value)}
              />
              <Field
                id="contact-message"
                multiline
                label="Message"
                name="message"
                rows={5}
                required
                value={values.message}
                error={errors.message}
                hint="What's on your mind, and what would a good outcome look like?"
                onChange={(e) => edit('message', e.target.value)}
              />
              <Button type="submit" size="lg" loading={sending} loadingText="Sending..." className="mt-1 self-start">
                Send Message
              </Button>
            </form>
          </Card>
          <ol className="flex flex-col gap-6 lg:col-start-1 lg:row-start-2 lg:self-start" aria-label="What happens next">
            {NEXT_STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-full bg-ink font-semibold text-brass"
                >
                  {index + 1}
                </span>
                <div>
                  <p className="font-semibold text-ink">{step.title}</p>
                  <p className="mt-1 leading-relaxed text-muted">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
          <DirectContact className="lg:col-start-1 lg:row-start-3 lg:self-start" />
        </div>
      </Section>
    </>
  );
}
