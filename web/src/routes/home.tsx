/** The home page shell; the full marketing page and the assessment arrive with the public-site issue. */
export function Home() {
  return (
    <main className="min-h-screen bg-sand">
      <section className="mx-auto flex max-w-5xl flex-col gap-8 px-6 py-24 sm:py-32">
        <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brass">Leadership coaching</p>
        <h1 className="font-serif text-4xl leading-tight text-ink sm:text-6xl">
          Lead with clarity when the stakes are highest.
        </h1>
        <p className="max-w-2xl text-lg leading-relaxed text-slate-700">
          A free leadership diagnostic shows how you decide, delegate and build trust under pressure, and what
          to work on next.
        </p>
        <div className="flex flex-wrap gap-4">
          <a
            href="#lead-magnets"
            className="rounded-full bg-ink px-6 py-3 font-semibold text-white shadow-sm transition hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass"
          >
            Take the Free Leadership Diagnostic
          </a>
        </div>
      </section>
    </main>
  );
}
