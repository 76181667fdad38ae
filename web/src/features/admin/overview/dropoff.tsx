import { diagnosticScreens, qualificationSurvey } from '#machines/content/index.js';
import type { DropoffStep, OverviewDropoff } from '#machines/protocol/admin/dropoff.js';
import type { AdminResource } from '../api.js';
import { humanize, stateName } from '../step-names.js';
import { EmptyState, ErrorState, Panel, Skeleton } from '../states.js';

interface Label {
  name: string;
  /** What tells the screen apart from its neighbours, or what the numbers cannot say. */
  detail?: string;
}

const SCREENS = new Map(diagnosticScreens.map((screen) => [screen.id, screen]));

function diagnosticLabel(step: string): Label {
  if (step === 'interstitial') return { name: stateName('diagnostic', step) };
  const screen = SCREENS.get(step);
  if (!screen) return { name: humanize(step) };
  const prompt = screen.type === 'likert' ? screen.item.prompt : screen.type === 'ranking' ? screen.ranking.prompt : screen.vignette.prompt;
  return { name: `Screen ${screen.number}: ${stateName('diagnostic', screen.type)}`, detail: prompt };
}

function assessmentLabel(step: string): Label {
  const name = stateName('assessmentFlow', step);
  // the survey is one form sent whole: no event says which question a visitor left it at
  if (step === 'survey') return { name, detail: `All ${qualificationSurvey.questions.length} questions on one page, sent together` };
  return { name };
}

const numberFormat = new Intl.NumberFormat('en-US');
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** Of the flows that reached a step, the share that stopped there; an end is where journeys finish. */
function dropoffText({ reached, stopped, end }: DropoffStep): string {
  if (end) return 'Finished';
  return reached > 0 ? percentFormat.format(stopped / reached) : '—';
}

function StepsTable({
  title,
  journey,
  captured,
  label,
}: {
  title: string;
  journey: OverviewDropoff['diagnostic'];
  /** The leads the journey's flows captured, for the assessment. */
  captured?: number;
  label: (step: string) => Label;
}) {
  const widest = Math.max(1, ...journey.steps.map((step) => step.reached));
  return (
    <div className="min-w-0">
      <table className="w-full table-fixed text-left text-sm">
        <caption className="mb-2 text-left font-semibold text-ink">
          {title}{' '}
          <span className="font-normal text-muted">
            · {numberFormat.format(journey.started)} started
            {captured !== undefined && ` · ${numberFormat.format(captured)} captured as leads`}
          </span>
        </caption>
        <thead>
          <tr className="text-xs tracking-wider text-muted uppercase">
            <th scope="col" className="py-2 pr-2 font-semibold">
              Screen
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-right font-semibold">
              Reached
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-right font-semibold">
              Stopped here
            </th>
            <th scope="col" className="w-16 py-2 pl-2 text-right font-semibold">
              Drop-off
            </th>
          </tr>
        </thead>
        <tbody>
          {journey.steps.map((step) => {
            const { name, detail } = label(step.step);
            return (
              <tr key={step.step} data-step={step.step} className="border-t border-line/70 align-top">
                <th scope="row" className="py-2 pr-2 font-normal">
                  <span className="block font-medium text-ink">{name}</span>
                  {detail && (
                    <span className="block truncate text-xs text-muted" title={detail}>
                      {detail}
                    </span>
                  )}
                  <span aria-hidden="true" className="mt-1.5 block h-1.5 rounded-full bg-sand">
                    <span className="block h-full rounded-full bg-ink" style={{ width: `${(step.reached / widest) * 100}%` }} />
                  </span>
                </th>
                <td className="px-2 py-2 text-right tabular-nums">{numberFormat.format(step.reached)}</td>
                <td className="px-2 py-2 text-right tabular-nums">{step.end ? '—' : numberFormat.format(step.stopped)}</td>
                <td className={`py-2 pl-2 text-right tabular-nums ${step.end ? 'text-success' : 'text-muted'}`}>{dropoffText(step)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The overview's drop-off per screen for the funnel's period and time zone: each assessment step
 * and diagnostic screen with the flows that reached it, those that stopped there and their share.
 */
export function DropoffSection({ resource }: { resource: AdminResource<OverviewDropoff> }) {
  const { data, failed, reload } = resource;
  const footer = `Flows started in the period${data?.includeTest ? ', test flows included' : ', test flows left out'}. A flow counts once per screen it reached; stopped here is the last screen of a flow that has not finished.`;
  return (
    <Panel title="Drop-off per screen" id="dropoff" footer={footer}>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-3 py-2" aria-busy="true">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-5/6" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : data.assessment.started + data.diagnostic.started === 0 ? (
        <EmptyState>No assessments or diagnostics started in this period</EmptyState>
      ) : (
        <div className="grid gap-8 xl:grid-cols-2">
          <StepsTable title="Assessment" journey={data.assessment} captured={data.assessment.captured} label={assessmentLabel} />
          <StepsTable title="Diagnostic" journey={data.diagnostic} label={diagnosticLabel} />
        </div>
      )}
    </Panel>
  );
}
