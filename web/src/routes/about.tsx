import { AssessmentLink } from '../app/assessment-cta.js';
import { Card, Section } from '../components/ui/index.js';

const CORE_VALUES = [
  {
    title: 'Candour with care',
    body: "I'll tell you what I see, clearly and kindly. Comfortable coaching is expensive coaching: it costs you the year you could have grown.",
  },
  {
    title: 'Your context, not a template',
    body: 'No borrowed framework forced onto your situation. We start from the decisions on your desk this week and the people around them.',
  },
  {
    title: 'Evidence over opinion',
    body: "We measure where you start and check where you are. If something isn't working, we change it rather than defend it.",
  },
  {
    title: 'Confidential, always',
    body: 'What you bring stays between us. Many clients say our sessions are the only place they can think out loud without consequences.',
  },
] as const;

/** `/about`: the coach's story and values, with the way into the diagnostic and the Mirror. */
export function AboutPage() {
  return (
    <>
      <title>About | Leadership Coaching</title>
      <Section
        tone="sand"
        spacing="hero"
        level={1}
        eyebrow="About"
        title="Coaching from someone who has sat in the chair."
        intro="Before coaching leaders, I spent fifteen years being one: building teams, making calls with half the information, and learning the hard way what pressure does to judgement."
      />

      <Section tone="white" eyebrow="The story" title="I became the bottleneck I complained about.">
        <div className="grid gap-12 lg:grid-cols-[1.5fr_1fr]">
          <div className="flex max-w-2xl flex-col gap-6 text-lg leading-relaxed text-muted">
            <p>
              My first leadership role came with a team of twelve and no instructions. I did what most capable people do: I worked harder,
              answered every question myself and approved everything twice. The team was loyal. They were also waiting for me, all the time.
            </p>
            <p>
              The turning point wasn't a course or a book. After a rough quarter a peer asked me one question:{' '}
              <em className="text-ink">“Which of these decisions actually needed you?”</em> The honest answer was about a third. Learning to
              tell the difference changed how I led, and eventually what I wanted to do with my working life.
            </p>
            <p>
              Since then I have coached founders through their first hundred hires, new executives through their first ninety days, and
              long-serving leaders through reorganisations nobody wanted. The situations differ. The pattern rarely does: capable people who
              have outgrown the habits that made them successful, and who are ready to build new ones.
            </p>
          </div>
          <figure className="self-start border-l-2 border-brass pl-6 lg:mt-2">
            <blockquote className="font-serif text-2xl leading-snug text-ink sm:text-3xl">
              “Most leaders don’t need more answers. They need better questions, and someone honest enough to ask them.”
            </blockquote>
            <figcaption className="mt-5 text-sm font-semibold tracking-wide text-brass-deep uppercase">
              The idea behind every session
            </figcaption>
          </figure>
        </div>
      </Section>

      <Section
        tone="paper"
        eyebrow="Core values"
        title="What you can count on."
        intro="Four commitments that hold whether we work together for a day or for two years."
      >
        <ul className="grid gap-6 sm:grid-cols-2">
          {CORE_VALUES.map((value, index) => (
            <Card as="li" key={value.title} padding="lg">
              <span aria-hidden="true" className="font-serif text-2xl text-brass-deep">
                0{index + 1}
              </span>
              <h3 className="mt-3 font-serif text-2xl text-ink">{value.title}</h3>
              <p className="mt-3 leading-relaxed text-muted">{value.body}</p>
            </Card>
          ))}
        </ul>
      </Section>

      <Section
        tone="ink"
        align="center"
        width="narrow"
        title="Start where you are."
        intro="Take the free diagnostic to see how you lead under pressure, or try the Decision Mirror on one real decision. Both take minutes."
      >
        <div className="-mt-4 flex flex-col justify-center gap-3 sm:flex-row">
          <AssessmentLink to="/#lead-magnets" variant="accent" size="lg">
            Take the Free Diagnostic
          </AssessmentLink>
          <AssessmentLink to="/#mirror-demo" mode="mirror" variant="inverse" size="lg">
            Try the Decision Mirror
          </AssessmentLink>
        </div>
      </Section>
    </>
  );
}
