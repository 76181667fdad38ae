import { useLocation } from 'react-router-dom';
import { ButtonLink } from '../../components/ui';
import { ADMIN_NAV } from './layout';
import { ScreenHeader } from './states';

const PLANNED: Record<string, string> = {
  '/admin/leads': 'A searchable, filterable table of every lead with their journey, scores and notes.',
  '/admin/integrations': 'Payments, scheduling, automation, email marketing and team-chat settings.',
  '/admin/monitor': 'Live bot messages and processed assessments from the team chat.',
  '/admin/jobs': 'The job queues: counts by state, failed jobs and retries.',
  '/admin/machines': 'Each flow machine drawn as a state diagram, with live counts.',
};

/** An admin screen that is not built yet: a clear empty state rather than a broken page. */
export function ComingSoonScreen() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '');
  const item = ADMIN_NAV.find((entry) => entry.to === path);
  const title = item?.label ?? 'Not found';
  return (
    <>
      <title>{`${title} | Admin | Leadership Coaching`}</title>
      <ScreenHeader title={title} />
      <div className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-ink/20 bg-white/70 px-6 py-16 text-center">
        <span className="rounded-full bg-ink px-3 py-1 text-xs font-semibold tracking-[0.16em] text-brass-light uppercase">Coming soon</span>
        <p className="max-w-md text-lg text-ink">{item ? PLANNED[item.to] : 'There is no admin screen at this address.'}</p>
        <p className="max-w-md text-muted">{item ? 'This screen is on its way. The overview and messages work today.' : 'Check the address, or go back to the overview.'}</p>
        <ButtonLink to="/admin" variant="secondary" size="sm">
          Back to Overview
        </ButtonLink>
      </div>
    </>
  );
}
