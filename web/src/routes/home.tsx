import { AssessmentButton } from '../app/assessment-cta.js';
import { socialLinksOf } from '../app/site.js';
import { SocialIcon } from '../app/social-icons.js';
import { ButtonLink, Card, Eyebrow, ProgressBar, Section } from '../components/ui/index.js';
import { useSiteSettings } from '../lib/site-settings.js';

const VALUES = [
  {
    title: 'Clarity before speed',
    body: "The fastest leaders aren't the ones who decide first. They're the ones who know what they're deciding and why. Every engagement starts there.",
  },
  {
    title: 'Ownership without isolation',
    body: "Carrying responsibility doesn't mean carrying it alone. You'll learn to hand off real authority and still sleep well on Sunday night.",
  },
  {
    title: 'Trust is built on Tuesdays',
    body: 'Not at the off-site. In how you respond to bad news in an ordinary week. We work on the moments your team actually remembers.',
  },
  {
    title: 'Measured, not guessed',
    body: 'We begin with a diagnostic and return to it, so your progress is something you can see rather than something you hope for.',
  },
] as const;

const DIAGNOSTIC_GAINS = [
  'Your leadership archetype, one of eight, with a plain-language narrative of how you operate today',
  'Scores across six dimensions: effectiveness, delegation, trust, ownership, vision and adaptability',
  'Three specific actions you can start this week',
  'A recommended next step that fits where you are right now',
] as const;

const DIAGNOSTIC_PARTS = [
  { label: 'Leadership diagnostic', time: '5-7 min', detail: 'Quick-fire statements and a priority ranking.' },
  { label: 'Timed scenarios', time: 'up to 3 min', detail: 'Real decisions, answered under a little pressure.' },
  { label: 'Short survey', time: '2-3 min', detail: 'Where you are and what you want from coaching.' },
] as const;

/**
 * An illustration of what the diagnostic returns: four of the six dimensions on the results' own
 * 0-100 scale; the figures are an example, not a visitor's result.
 */
const SAMPLE_PROFILE = [
  { label: 'Leadership Effectiveness', value: 78 },
  { label: 'Delegation Command', value: 52 },
  { label: 'Trust Building', value: 81 },
  { label: 'Vision', value: 66 },
] as const;

function Check() {
  return (
    <svg viewBox="0 0 20 20" className="mt-1 size-5 shrink-0 text-brass-deep" fill="currentColor" aria-hidden="true">
      <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm3.9 6.3-4.6 5.6a.75.75 0 0 1-1.12.05L6.1 11.3a.75.75 0 1 1 1.06-1.06l1.5 1.5 4.07-4.9a.75.75 0 1 1 1.16.96Z" />
    </svg>
  );
}

function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-sand pt-28 pb-20 sm:pt-36 sm:pb-28">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 -right-40 hidden lg:block size-[36rem] rounded-full border border-brass/30"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -right-24 hidden lg:block size-[28rem] rounded-full border border-brass/20"
      />
      <div className="relative mx-auto grid max-w-6xl items-center gap-14 px-6 sm:px-8 lg:grid-cols-[1.25fr_1fr]">
        <div>
          <Eyebrow>Leadership coaching</Eyebrow>
          <h1 id="hero-title" className="font-serif text-[2.6rem] leading-[1.06] tracking-tight text-balance text-ink sm:text-display">
            Lead with clarity when the stakes are highest.
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-muted sm:text-xl">
            For founders, executives and senior managers who carry the weight of every decision. Start with a free leadership diagnostic:
            see how you decide, delegate and build trust under pressure, and exactly what to work on next.
          </p>
          <div className="mt-9 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <AssessmentButton size="lg">Take the Free Assessment</AssessmentButton>
            <ButtonLink to="/services" variant="secondary" size="lg">
              Explore Coaching
            </ButtonLink>
          </div>
          <dl className="mt-10 grid max-w-lg grid-cols-3 gap-4 border-t border-line pt-6">
            {[
              ['8-12', 'minutes'],
              ['6', 'leadership dimensions'],
              ['1', 'clear next step'],
            ].map(([figure, label]) => (
              <div key={label}>
                <dt className="sr-only">{label}</dt>
                <dd>
                  <span className="block font-serif text-3xl text-ink">{figure}</span>
                  <span className="mt-1 block text-sm leading-snug text-muted">{label}</span>
                </dd>
              </div>
            ))}
          </dl>
        </div>

        <Card as="figure" tone="white" padding="lg" className="hidden lg:flex" aria-label="Example of a diagnostic result">
          <p className="text-xs font-semibold tracking-[0.2em] text-brass-deep uppercase">Example result</p>
          <p className="mt-3 font-serif text-2xl text-ink">Trust-Builder Architect</p>
          <p className="mt-2 text-sm leading-relaxed text-muted">
            Your team follows you because they feel heard. Your growth edge: letting go of decisions you have already delegated.
          </p>
          <div className="mt-7 flex flex-col gap-5">
            {SAMPLE_PROFILE.map((row) => (
              <ProgressBar
                key={row.label}
                label={row.label}
                value={row.value}
                max={100}
                valueText={`${row.value} / 100`}
                showLabel
                tone="brass"
              />
            ))}
          </div>
        </Card>
      </div>
    </section>
  );
}

/** `/` and `/survey`: the marketing home page with every way into the assessment. */
export function Home() {
  const socialLinks = socialLinksOf(useSiteSettings().socialLinks);
  return (
    <>
      <title>Leadership Coaching | Free Leadership Diagnostic</title>
      <Hero />

      <Section
        tone="white"
        eyebrow="What we believe"
        title="Leadership is a practice, not a personality."
        intro="Good leaders are not born with a finished toolkit. They build it, one decision and one conversation at a time. These four ideas shape everything we do together."
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map((value, index) => (
            <Card as="li" key={value.title} tone="sand">
              <span aria-hidden="true" className="font-serif text-2xl text-brass-deep">
                0{index + 1}
              </span>
              <h3 className="mt-4 font-serif text-xl text-ink">{value.title}</h3>
              <p className="mt-3 leading-relaxed text-muted">{value.body}</p>
            </Card>
          ))}
        </ul>
      </Section>

      <Section id="lead-magnets" tone="sand">
        <div className="grid items-start gap-12 lg:grid-cols-[1.2fr_1fr]">
          <div>
            <Eyebrow>Free leadership diagnostic</Eyebrow>
            <h2 className="font-serif text-3xl text-balance text-ink sm:text-title">
              See how you lead under pressure, in about ten minutes.
            </h2>
            <p className="mt-5 text-lg leading-relaxed text-muted">
              Built on the patterns we see in hundreds of coaching conversations, the diagnostic looks past what you intend to do and at
              what you actually do when time is short and the answer is unclear.
            </p>
            <ul className="mt-8 flex flex-col gap-4">
              {DIAGNOSTIC_GAINS.map((gain) => (
                <li key={gain} className="flex gap-3 leading-relaxed text-ink">
                  <Check />
                  {gain}
                </li>
              ))}
            </ul>
            <div className="mt-10 flex flex-col gap-4 sm:flex-row sm:items-center">
              <AssessmentButton size="lg">Take the Free Leadership Diagnostic</AssessmentButton>
              <p className="text-sm text-muted">Free. No sales call required.</p>
            </div>
          </div>
          <Card tone="white" padding="lg">
            <h3 className="font-serif text-2xl text-ink">What to expect</h3>
            <p className="mt-2 text-muted">8-12 minutes in total, in three parts.</p>
            <ol className="mt-6 flex flex-col divide-y divide-line">
              {DIAGNOSTIC_PARTS.map((part, index) => (
                <li key={part.label} className="flex gap-4 py-4 first:pt-0 last:pb-0">
                  <span
                    aria-hidden="true"
                    className="flex size-9 shrink-0 items-center justify-center rounded-full bg-ink font-semibold text-brass"
                  >
                    {index + 1}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-baseline justify-between gap-x-3 font-semibold text-ink">
                      {part.label}
                      <span className="text-sm font-medium text-brass-deep">{part.time}</span>
                    </p>
                    <p className="mt-1 text-sm leading-relaxed text-muted">{part.detail}</p>
                  </div>
                </li>
              ))}
            </ol>
          </Card>
        </div>
      </Section>

      <Section id="mirror-demo" tone="white">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div className="lg:order-2">
            <Eyebrow>Try it now</Eyebrow>
            <h2 className="font-serif text-3xl text-balance text-ink sm:text-title">The Decision Mirror</h2>
            <p className="mt-5 text-lg leading-relaxed text-muted">
              Bring one difficult decision from your current role. In five short exchanges the Mirror answers with questions, not advice,
              the way a good coach would, so you hear your own thinking more clearly.
            </p>
            <p className="mt-4 leading-relaxed text-muted">
              It takes about three minutes, and you can keep the conversation or let it go when you're done.
            </p>
            <div className="mt-8">
              <AssessmentButton mode="mirror" size="lg" variant="secondary">
                Try the Decision Mirror
              </AssessmentButton>
            </div>
          </div>
          <Card as="figure" tone="sand" padding="lg" className="lg:order-1" aria-label="Example Mirror conversation">
            <div className="flex flex-col gap-4 text-[0.95rem] leading-relaxed">
              <p className="max-w-[85%] rounded-2xl rounded-tl-sm bg-white px-4 py-3 text-ink shadow-soft">
                <span className="mb-1 block text-xs font-semibold tracking-wider text-brass-deep uppercase">Mirror</span>
                What's a difficult decision you're facing in your current role?
              </p>
              <p className="ml-auto max-w-[85%] rounded-2xl rounded-tr-sm bg-ink px-4 py-3 text-white">
                <span className="mb-1 block text-xs font-semibold tracking-wider text-brass-light uppercase">You</span>
                Whether to promote someone from my team or hire a senior lead from outside.
              </p>
              <p className="max-w-[85%] rounded-2xl rounded-tl-sm bg-white px-4 py-3 text-ink shadow-soft">
                <span className="mb-1 block text-xs font-semibold tracking-wider text-brass-deep uppercase">Mirror</span>
                What would you need to believe about your team for the internal promotion to feel like the obvious choice?
              </p>
            </div>
          </Card>
        </div>
      </Section>

      <Section
        tone="paper"
        align="center"
        eyebrow="Between sessions"
        title="Keep learning where you already spend your time."
        intro="Practical ideas on decisions, delegation and trust, in the format that suits you."
      >
        <ul className="flex flex-wrap justify-center gap-4">
          {socialLinks.map((social) => (
            <li key={social.id} className="w-[calc((100%-1rem)/2)] lg:w-[calc((100%-3rem)/4)]">
              <a
                href={social.href}
                target="_blank"
                rel="noopener noreferrer"
                className="group flex h-full items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-soft transition-colors hover:border-brass sm:items-start sm:gap-4 sm:p-5"
              >
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-sand text-ink transition-colors group-hover:bg-ink group-hover:text-brass sm:size-11">
                  <SocialIcon id={social.id} />
                </span>
                <span>
                  <span className="block font-semibold text-ink">
                    {social.label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </span>
                  <span className="mt-1 hidden text-sm leading-relaxed text-muted sm:block">{social.blurb}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      </Section>

      <ClosingCta />
    </>
  );
}

/** The ink band that closes the home page. */
function ClosingCta() {
  return (
    <Section
      tone="ink"
      align="center"
      width="narrow"
      title="The leaders people remember didn't get there by accident."
      intro="Start with an honest picture of how you lead today. It takes about ten minutes, it's free, and you'll leave with three things to do differently next week."
    >
      <div className="-mt-4 flex flex-col justify-center gap-3 sm:flex-row">
        <AssessmentButton variant="accent" size="lg">
          Start Your Free Assessment
        </AssessmentButton>
        <ButtonLink to="/contact" variant="inverse" size="lg">
          Talk to Us
        </ButtonLink>
      </div>
    </Section>
  );
}
