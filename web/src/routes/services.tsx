import { AssessmentLink } from '../app/assessment-cta.js';
import { ButtonLink, Card, cx, Eyebrow, Section } from '../components/ui/index.js';
import { SERVICES, type Service } from './services-data.js';

const TESTIMONIALS = [
  {
    quote:
      'I came in thinking I had a delegation problem. It turned out I had a trust problem, mostly with myself. Six months later my team runs the weekly operating meeting without me, and delivery has never been better.',
    name: 'Priya N.',
    role: 'VP of Engineering, Series C software company',
  },
  {
    quote:
      'The diagnostic put words to something my board had been hinting at for a year, and the coaching gave me a way to fix it. Our leadership team now settles in days what used to drag on for a month.',
    name: 'Daniel M.',
    role: 'Founder & CEO, logistics scale-up',
  },
  {
    quote:
      "Practical, direct and never generic. Every session started from a real decision I was facing that week. I've recommended it to every new executive I have hired since.",
    name: 'Claire O.',
    role: 'Chief Operating Officer, regional healthcare group',
  },
] as const;

const PROCESS = [
  {
    title: 'Assessment',
    body: "We start with the free diagnostic and an honest conversation about what's at stake, so we both know exactly where you're starting from.",
  },
  {
    title: 'Design',
    body: "Together we agree three outcomes, how we'll measure them, and a rhythm of sessions that fits the calendar you actually have.",
  },
  {
    title: 'Implementation',
    body: 'Sessions work on live decisions. You practise new habits between them, and we adjust to what really happens, not to the plan.',
  },
  {
    title: 'Integration',
    body: 'We re-assess, compare with where you began, and make sure the new habits hold when the coaching ends and the pressure returns.',
  },
] as const;

function Stars() {
  return (
    <p className="flex gap-1 text-brass" role="img" aria-label="Rated 5 out of 5 stars">
      {Array.from({ length: 5 }, (_, i) => (
        <svg key={i} viewBox="0 0 20 20" className="size-5" fill="currentColor" aria-hidden="true">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.25 4.1 1 5.8L10 14.85 4.75 17.6l1-5.8L1.5 7.7l5.9-.9L10 1.5Z" />
        </svg>
      ))}
    </p>
  );
}

function ServiceCard({ service }: { service: Service }) {
  return (
    <Card as="li" padding="lg" featured={service.featured} className={cx(service.featured && 'bg-white')}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span
          className={cx(
            'rounded-full px-3 py-1 text-xs font-semibold tracking-wide',
            service.featured ? 'bg-brass text-ink' : 'bg-sand text-brass-deep',
          )}
        >
          {service.tag}
        </span>
        <span className="flex items-center gap-2 text-sm font-medium text-muted">
          <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
            <circle cx="10" cy="10" r="7.5" />
            <path d="M10 6v4l2.5 2" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Duration: </span>
          {service.duration}
        </span>
      </div>
      <h3 className="mt-6 font-serif text-2xl text-ink sm:text-[1.75rem]">{service.name}</h3>
      <p className="mt-1 font-medium text-brass-deep">{service.subtitle}</p>
      <p className="mt-4 leading-relaxed text-muted">{service.description}</p>
      <ul className="mt-6 flex flex-col gap-3 border-t border-line pt-6">
        {service.features.map((feature) => (
          <li key={feature} className="flex gap-3 text-[0.95rem] leading-relaxed text-ink">
            <svg viewBox="0 0 20 20" className="mt-1 size-4 shrink-0 text-brass-deep" fill="currentColor" aria-hidden="true">
              <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z" />
            </svg>
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-8">
        {service.featured ? (
          <AssessmentLink block size="lg">
            Take Assessment
          </AssessmentLink>
        ) : (
          <ButtonLink to="/contact" variant="secondary" block size="lg">
            Contact Us
          </ButtonLink>
        )}
      </div>
    </Card>
  );
}

/** `/services`: the four offers, what clients say, how an engagement runs. */
export function ServicesPage() {
  return (
    <>
      <title>Services | Leadership Coaching</title>
      <Section
        tone="sand"
        spacing="hero"
        level={1}
        eyebrow="Services"
        title="Coaching that meets you where the pressure is."
        intro="Every engagement starts with the same free diagnostic, so we build on evidence about how you lead rather than on guesswork. Then we choose the format that fits you, your team or your organisation."
      >
        <AssessmentLink size="lg" className="-mt-2">
          Take Free Assessment
        </AssessmentLink>
      </Section>

      <Section
        tone="paper"
        eyebrow="Ways to work together"
        title="Four formats, one standard."
        intro="Durations are typical ranges; we agree the exact scope after the diagnostic."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {SERVICES.map((service) => (
            <ServiceCard key={service.name} service={service} />
          ))}
        </ul>
      </Section>

      <Section tone="white" eyebrow="Client stories" title="What leaders say after the work." align="center">
        <ul className="grid gap-6 lg:grid-cols-3">
          {TESTIMONIALS.map((testimonial) => (
            <Card as="li" key={testimonial.name} tone="sand" padding="lg">
              <figure className="flex h-full flex-col">
                <Stars />
                <blockquote className="mt-5 flex-1 font-serif text-lg leading-relaxed text-ink">“{testimonial.quote}”</blockquote>
                <figcaption className="mt-6 border-t border-line pt-5">
                  <span className="block font-semibold text-ink">{testimonial.name}</span>
                  <span className="block min-h-10 text-sm text-muted">{testimonial.role}</span>
                </figcaption>
              </figure>
            </Card>
          ))}
        </ul>
      </Section>

      <Section tone="paper" eyebrow="How it works" title="A clear process, from first conversation to lasting change.">
        <ol className="grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          {PROCESS.map((step, index) => (
            <li key={step.title} className="relative border-t-2 border-ink pt-6">
              <span className="font-serif text-4xl text-brass-deep" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="mt-3 text-lg font-semibold text-ink">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 leading-relaxed text-muted">{step.body}</p>
            </li>
          ))}
        </ol>
      </Section>

      <section aria-labelledby="services-cta" className="bg-ink py-20 text-white sm:py-28">
        <div className="mx-auto max-w-3xl px-6 text-center sm:px-8">
          <Eyebrow dark className="justify-center">
            Your first step
          </Eyebrow>
          <h2 id="services-cta" className="font-serif text-3xl text-balance sm:text-title">
            Find out which kind of coaching would move you furthest.
          </h2>
          <p className="mt-5 text-lg leading-relaxed text-mist">
            The diagnostic takes about ten minutes and tells us both where to start. If you would rather talk it through first, we reply
            within 24 hours.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-4 sm:flex-row">
            <AssessmentLink variant="accent" size="lg">
              Take the Free Leadership Diagnostic
            </AssessmentLink>
            <ButtonLink to="/contact" variant="inverse" size="lg">
              Not sure yet? Contact us.
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
