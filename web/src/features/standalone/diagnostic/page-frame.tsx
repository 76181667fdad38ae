import type { ReactNode } from 'react';
import { Card, Eyebrow, ProgressBar } from '#web/components/ui/index.js';

/** Until the flow is there: the page with its progress at 'Starting'. */
export function Preparing() {
  return (
    <Frame progress={null} busy>
      <p className="text-muted" role="status">
        Preparing your diagnostic…
      </p>
    </Frame>
  );
}

export /** The page around an item: title, progress 'Item N / total' and the item's card. */
function Frame({ progress, busy, children }: { progress: { current: number; total: number } | null; busy: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby="diagnostic-title" className="min-h-screen bg-sand px-5 pt-28 pb-20 sm:px-8 sm:pt-36">
      <div className="mx-auto flex max-w-2xl flex-col gap-8">
        <header className="flex flex-col gap-5">
          <Eyebrow>Free assessment</Eyebrow>
          <h1 id="diagnostic-title" className="font-serif text-4xl text-balance text-ink sm:text-5xl">
            Leadership Diagnostic
          </h1>
          <ProgressBar
            value={progress?.current ?? 0}
            max={progress?.total ?? 1}
            label="Diagnostic progress"
            valueText={progress ? `Item ${progress.current} / ${progress.total}` : 'Starting'}
            showLabel
          />
        </header>
        <Card padding="lg" aria-busy={busy}>
          {children}
        </Card>
      </div>
    </section>
  );
}
