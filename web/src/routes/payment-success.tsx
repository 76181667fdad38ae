import { ButtonLink, Card } from '../components/ui/index.js';

/** `/payment-success`: where Stripe Checkout (or the test payment) returns after the $250 deposit. */
export function PaymentSuccessPage() {
  return (
    <>
      <title>Payment Successful | Leadership Coaching</title>
      <section aria-labelledby="payment-title" className="flex min-h-screen items-center justify-center bg-sand px-6 pt-28 pb-20">
        <Card padding="lg" className="w-full max-w-lg items-center text-center">
          <span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-ink text-brass">
            <svg
              viewBox="0 0 24 24"
              className="size-8"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M5 12.5l4.5 4.5L19 7.5" />
            </svg>
          </span>
          <h1 id="payment-title" className="mt-7 font-serif text-3xl text-ink sm:text-4xl">
            Payment Successful
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-muted">
            Thank you. Your $250 refundable deposit has been received, and a receipt is on its way to your email.
          </p>
          <p className="mt-3 leading-relaxed text-muted">
            Next comes your 45-minute strategy session, where we go through your results together and decide whether coaching is the right
            fit. The deposit is 100% refundable.
          </p>
          <ButtonLink to="/" size="lg" className="mt-9">
            Return Home
          </ButtonLink>
        </Card>
      </section>
    </>
  );
}
