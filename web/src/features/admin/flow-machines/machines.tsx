import { useEffect } from 'react';
import { machinesSchema } from '#machines/protocol/admin/machines.js';
import { useAdminResource } from '../api.js';
import { FALLBACK_POLL_MS, LIVE_RELOAD_MS, LiveIndicator, useInterval } from '../ops-live.js';
import { useAdminLive, useCoalesced } from '../live.js';
import { MachineDiagram } from './machines-diagram.js';
import type { MachineSummary } from './machines-layout.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

const numberFormat = new Intl.NumberFormat('en-US');

function EventRate({ perMinute }: { perMinute: number[] }) {
  const total = perMinute.reduce((sum, n) => sum + n, 0);
  const peak = Math.max(1, ...perMinute);
  return (
    <div className="flex items-end gap-3">
      <svg viewBox={`0 0 ${perMinute.length * 3} 24`} width={perMinute.length * 3} height={24} aria-hidden="true" className="shrink-0">
        {perMinute.map((count, index) => (
          <rect
            key={index}
            x={index * 3}
            y={24 - (count / peak) * 24}
            width={2}
            height={Math.max(count ? 1 : 0, (count / peak) * 24)}
            className="fill-brass-deep"
          />
        ))}
      </svg>
      <p className="text-sm text-muted">
        {numberFormat.format(total)} {total === 1 ? 'event' : 'events'} in the last hour
        {perMinute.at(-1) ? `, ${perMinute.at(-1)} this minute` : ''}
      </p>
    </div>
  );
}

function StatesTable({ machine }: { machine: MachineSummary }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">States of {machine.name}, the flows now in each and where each event leads</caption>
      <thead>
        <tr className="text-xs tracking-wider text-muted uppercase">
          <th scope="col" className="px-2 py-2 font-semibold">
            State
          </th>
          <th scope="col" className="w-20 px-2 py-2 text-right font-semibold">
            Flows
          </th>
          <th scope="col" className="px-2 py-2 font-semibold">
            Transitions
          </th>
        </tr>
      </thead>
      <tbody>
        {machine.states.map((state) => (
          <tr key={state.path} className="border-t border-line/70 align-top" data-state-row={state.path}>
            <th
              scope="row"
              className="px-2 py-2 font-medium text-ink"
              style={{ paddingLeft: `${0.5 + (state.path.split('.').length - 1) * 1.25}rem` }}
            >
              <span className="font-mono text-[0.8rem]">{state.path}</span>
              {state.path === machine.initial && <span className="ml-2 text-xs text-muted">(initial)</span>}
              {state.type === 'compound' && <span className="ml-2 text-xs text-muted">(group)</span>}
              {state.type === 'final' && <span className="ml-2 text-xs text-muted">(final)</span>}
            </th>
            <td className="px-2 py-2 text-right font-semibold text-ink">{numberFormat.format(state.count)}</td>
            <td className="px-2 py-2 text-muted">
              {state.transitions.length === 0
                ? '—'
                : state.transitions.map((transition, index) => (
                    <span key={index} className="block">
                      {transition.event}
                      {transition.guard && ` [${transition.guard}]`} →{' '}
                      <span className="font-mono text-[0.8rem] text-ink">{transition.target}</span>
                    </span>
                  ))}
            </td>
          </tr>
        ))}
        {machine.unknown.map((entry) => (
          <tr key={`unknown-${entry.state}`} className="border-t border-line/70">
            <th scope="row" className="px-2 py-2 font-mono text-[0.8rem] text-muted">
              {entry.state} <span className="font-sans text-xs">(not in the current definition)</span>
            </th>
            <td className="px-2 py-2 text-right font-semibold text-ink">{numberFormat.format(entry.count)}</td>
            <td className="px-2 py-2 text-muted">—</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MachinePanel({ machine }: { machine: MachineSummary }) {
  const id = `machine-${machine.name}`;
  return (
    <section aria-labelledby={id} data-machine={machine.name} className="rounded-3xl border border-line bg-white shadow-soft">
      <div className="flex flex-wrap items-end justify-between gap-4 border-b border-line px-6 py-4">
        <div>
          <h2 id={id} className="font-serif text-2xl tracking-tight">
            {machine.name}
          </h2>
          <p className="text-sm text-muted">
            {numberFormat.format(machine.totalFlows)} {machine.totalFlows === 1 ? 'flow' : 'flows'} · {machine.states.length} states
          </p>
        </div>
        <EventRate perMinute={machine.eventsPerMinute} />
      </div>
      <div
        className="overflow-x-auto px-2 py-4 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brass"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
        tabIndex={0}
        role="group"
        aria-label={`${machine.name} diagram (scrolls sideways)`}
      >
        <MachineDiagram machine={machine} />
      </div>
      <p className="px-6 pb-3 text-xs text-muted">
        Boxes are states in columns by how many steps they are from the start (thick border); the dark badge is the number of flows in the
        state now; dashed boxes pass straight on; ↻ marks events handled in place.
      </p>
      {machine.global.length > 0 && (
        <p className="px-6 pb-3 text-xs text-muted">Any state takes: {machine.global.map((entry) => entry.event).join(', ')}</p>
      )}
      <details className="border-t border-line px-6 py-3">
        <summary className="cursor-pointer py-1 text-sm font-semibold text-ink">States and counts as a table</summary>
        <div className="mt-2 overflow-x-auto">
          <StatesTable machine={machine} />
        </div>
      </details>
    </section>
  );
}

/**
 * /admin/machines: each flow machine drawn from its definition with the flows now in each state,
 * reloaded as flow events arrive on the live socket (polled slowly only while it is down).
 */
export function MachinesScreen() {
  const { data, loading, failed, reload } = useAdminResource('/api/admin/machines', machinesSchema);
  const reloadSoon = useCoalesced(reload, LIVE_RELOAD_MS);
  const { live } = useAdminLive({ onFlow: reloadSoon });
  useInterval(reload, FALLBACK_POLL_MS, !live && !failed);
  // what happened while the socket was down is read once it is back
  useEffect(() => {
    if (live) reload();
  }, [live, reload]);
  return (
    <>
      <title>Machines | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Machines"
        description="The flow machines visitors run, drawn from their definitions, with how many flows are in each state right now, updated as events happen."
        actions={
          <>
            <LiveIndicator live={live} />
            <RefreshButton loading={loading} onClick={reload} />
          </>
        }
      />
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-6" aria-busy="true">
          {[0, 1].map((n) => (
            <div key={n} className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
              <Skeleton className="h-7 w-48" />
              <Skeleton className="h-64 w-full" />
            </div>
          ))}
        </div>
      ) : data.machines.length === 0 ? (
        <div className="rounded-3xl border border-line bg-white shadow-soft">
          <EmptyState>No flow machines are defined</EmptyState>
        </div>
      ) : (
        <div className="flex flex-col gap-8">
          {data.machines.map((machine) => (
            <MachinePanel key={machine.name} machine={machine} />
          ))}
        </div>
      )}
    </>
  );
}
