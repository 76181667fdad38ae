import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Button, ButtonLink, Card } from '../components/ui/index.js';
import { api, ApiError } from '../lib/api.js';

/** The marks' drawings, on a 24-unit square. */
const MARKS = {
  done: 'M5 12.5l4.5 4.5L19 7.5',
  mail: 'M4 7h16v10H4zM4.5 7.5l7.5 6 7.5-6',
  notice: 'M12 6.5v7M12 17.5v.01',
};

/**
 * The page an email's link opens (unsubscribe, resume): one card on sand, with a mark, a title,
 * what happened and what to do next.
 */
export function EmailLinkPage({
  title,
  mark,
  children,
  actions,
}: {
  title: string;
  /** A check for something done, an envelope for a question about emails, an exclamation for something to know; none while waiting. */
  mark?: keyof typeof MARKS;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <>
      <title>{`${title} | Leadership Coaching`}</title>
      {/* opened from one person's email link: not for search results (the server also sends X-Robots-Tag) */}
      <meta name="robots" content="noindex" />
      <section
        aria-labelledby="email-link-title"
        className="flex min-h-screen items-center justify-center bg-sand px-5 pt-28 pb-20 sm:px-6"
      >
        <Card padding="lg" className="w-full max-w-lg items-center text-center">
          {mark && (
            <span aria-hidden="true" className="mb-7 flex size-16 items-center justify-center rounded-full bg-ink text-brass">
              <svg viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
                <path d={MARKS[mark]} strokeLinejoin="round" />
              </svg>
            </span>
          )}
          <h1 id="email-link-title" className="font-serif text-3xl text-balance text-ink sm:text-4xl">
            {title}
          </h1>
          <div className="mt-4 flex flex-col gap-3 text-lg leading-relaxed text-muted">{children}</div>
          <div className="mt-9 flex flex-wrap justify-center gap-3">{actions}</div>
        </Card>
      </section>
    </>
  );
}

type Step = 'confirm' | 'working' | 'done' | 'invalid' | { failed: string };

const unsubscribedSchema = z.object({ unsubscribed: z.literal(true) });

/**
 * `/unsubscribe?token=…`, the page the reminders' footer links to: asks before it unsubscribes (a
 * link scanner following the link must not), then says so. Mail clients with a one-click button
 * post to the API themselves and never show this page.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [step, setStep] = useState<Step>(token ? 'confirm' : 'invalid');

  const confirm = () => {
    setStep('working');
    api(`/api/email/unsubscribe?token=${encodeURIComponent(token ?? '')}`, {
      method: 'POST',
      body: { from: 'page' },
      schema: unsubscribedSchema,
    }).then(
      () => setStep('done'),
      (error: unknown) =>
        setStep(error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'invalid' : { failed: messageOf(error) }),
    );
  };

  if (step === 'done') {
    return (
      <EmailLinkPage title="You're unsubscribed" mark="done" actions={<ButtonLink to="/">Return Home</ButtonLink>}>
        <p>We will not send you any more reminders.</p>
        <p className="text-base">Emails you ask for, such as your results, still come.</p>
      </EmailLinkPage>
    );
  }
  if (step === 'invalid') {
    return (
      <EmailLinkPage title="This unsubscribe link does not work" mark="notice" actions={<ButtonLink to="/">Return Home</ButtonLink>}>
        <p>It may be incomplete: open the whole link from the email again.</p>
      </EmailLinkPage>
    );
  }
  return (
    <EmailLinkPage
      title="Unsubscribe from reminders"
      mark="mail"
      actions={
        <Button size="lg" onClick={confirm} loading={step === 'working'} loadingText="Unsubscribing...">
          Unsubscribe
        </Button>
      }
    >
      <p>
        We send a reminder when an assessment is left unfinished, or when a paid strategy session is not booked yet. Unsubscribe and you get
        none.
      </p>
      <p className="text-base">Emails you ask for, such as your results and receipts, still come.</p>
      {typeof step === 'object' && (
        <p role="alert" className="text-base text-danger">
          {step.failed}
        </p>
      )}
    </EmailLinkPage>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
}
