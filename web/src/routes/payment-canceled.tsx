import { ButtonLink, Card } from '../components/ui/index.js';

/** `/payment-canceled`: where Stripe Checkout returns when the visitor backs out. */
export function PaymentCanceledPage() {
  return (
    <>
      <title>Checkout canceled | Leadership Coaching</title>
      <section aria-labelledby="canceled-title" className="flex min-h-screen items-center justify-center bg-sand px-6 pt-28 pb-20">
        <Card padding="lg" className="w-full max-w-lg items-center text-center">
          <span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-sand-deep text-ink">
            <svg viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M12 7v6M12 16.5v.5" />
              <circle cx="12" cy="12" r="9" />
            </svg>
          </span>
          <h1 id="canceled-title" className="mt-7 font-serif text-3xl text-ink sm:text-4xl">
            Checkout canceled
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-muted">Your checkout was canceled. You can restart the process anytime.</p>
          <p className="mt-3 leading-relaxed text-muted">No payment was taken.</p>
          <ButtonLink to="/" size="lg" className="mt-9">
            Back to Home
          </ButtonLink>
        </Card>
      </section>
    </>
  );
}
