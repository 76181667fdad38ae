import { useEffect, useMemo, useState } from 'react';
import { Button, cx } from '#web/components/ui/index.js';
import { formatDateTime } from '../api.js';
import { TechnicalDetails } from '../lead-parts.js';
import type { LeadFlow } from './leads-api.js';
import { replayFlow } from './leads-replay.js';
import { eventName, machineName, originName, stateName } from '../step-names.js';

/** One flow's events as a timeline in words, with a replay that steps the shared machine through them. */
export function FlowJourney({ flow }: { flow: LeadFlow }) {
  const replay = useMemo(() => replayFlow(flow.machine, flow.events), [flow]);
  // 0 = the initial state, n = after the n-th event
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const last = replay.steps.length;

  // the replay stops at the last event
  if (playing && step >= last) setPlaying(false);
  useEffect(() => {
    if (!playing || step >= last) return;
    const timer = setTimeout(() => setStep((n) => n + 1), 700);
    return () => clearTimeout(timer);
  }, [playing, step, last]);

  const current = step === 0 ? null : replay.steps[step - 1]!;
  const shownState = step === 0 ? (replay.initial ?? 'start') : (current!.replayed ?? current!.recorded);

  const state = (path: string) => stateName(flow.machine, path);
  const event = (type: string) => eventName(flow.machine, type);

  return (
    <section aria-label={`Flow ${machineName(flow.machine)}`} data-flow={flow.id} className="rounded-2xl border border-line p-3 sm:p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="min-w-0 font-semibold break-words text-ink">
          {machineName(flow.machine)} <span className="font-normal text-muted">· now: {state(flow.state)}</span>
          {flow.testing && <span className="ml-2 rounded-full bg-sand px-2 py-0.5 text-xs">testing</span>}
        </h3>
        <p className="text-xs text-muted">Started {formatDateTime(flow.created_at)}</p>
      </div>
      <TechnicalDetails
        items={[
          ['Machine', flow.machine],
          ['Flow id', flow.id],
          ['State', flow.state],
          ['Mode', flow.mode],
        ]}
      />
      {last === 0 ? (
        <p className="mt-3 text-sm text-muted">No events recorded for this flow yet.</p>
      ) : (
        <>
          <div className="mt-4 flex flex-wrap items-center gap-2 rounded-xl bg-sand/60 p-3" role="group" aria-label="Replay">
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setPlaying(false);
                setStep(0);
              }}
              disabled={step === 0}
            >
              Reset
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setPlaying(false);
                setStep((n) => Math.max(0, n - 1));
              }}
              disabled={step === 0}
            >
              Step back
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setPlaying(false);
                setStep((n) => Math.min(last, n + 1));
              }}
              disabled={step >= last}
            >
              Step forward
            </Button>
            <Button
              size="sm"
              onClick={() => {
                if (step >= last) setStep(0);
                setPlaying((p) => !p);
              }}
            >
              {playing ? 'Pause' : 'Replay'}
            </Button>
            <p className="w-full text-sm break-words sm:ml-auto sm:w-auto sm:text-right" aria-live="polite" data-replay-state>
              <span className="text-muted">
                Step {step} of {last}
                {current ? ` · ${event(current.type)}` : ''} →{' '}
              </span>
              <strong className="text-ink">{state(shownState)}</strong>
            </p>
          </div>
          {replay.problem && <p className="mt-2 text-sm break-words text-danger">{replay.problem}</p>}
          <ol className="mt-4 flex flex-col" aria-label="Journey timeline">
            {replay.steps.map((entry, index) => {
              const active = index + 1 === step;
              const done = index + 1 < step;
              const mismatch = entry.replayed !== null && entry.replayed !== entry.recorded;
              return (
                <li key={entry.seq} aria-current={active ? 'step' : undefined} className="relative flex gap-3 pb-4 last:pb-0">
                  <span
                    aria-hidden="true"
                    className={cx(
                      'mt-1.5 size-3 shrink-0 rounded-full border-2',
                      active ? 'border-brass bg-brass' : done ? 'border-ink bg-ink' : 'border-ink/30 bg-white',
                    )}
                  />
                  <div className={cx('min-w-0 flex-1 rounded-xl px-3 py-2', active && 'bg-brass/15')}>
                    <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                      <span className="font-semibold break-words text-ink">{event(entry.type)}</span>
                      <span className="text-xs text-muted">
                        {originName(entry.origin)} · <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                      </span>
                    </p>
                    <p className="mt-0.5 text-sm break-words text-ink-700">
                      → {state(entry.recorded)}
                      {mismatch && <span className="ml-2 text-danger">(replay reached {state(entry.replayed!)})</span>}
                    </p>
                    <TechnicalDetails
                      items={[
                        ['Event', `#${entry.seq} ${entry.type}`],
                        ['State after', entry.recorded],
                        ...(mismatch ? ([['Replay reached', entry.replayed!]] as Array<[string, string]>) : []),
                        ['Origin', entry.origin],
                      ]}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
