import { Link } from 'react-router-dom';
import type { NeedsAttention } from '#machines/protocol/admin/attention.js';
import { formatDate, type AdminResource } from '../api.js';
import { EmptyState, ErrorState, Panel, Skeleton } from '../states.js';

const REASONS: Record<NeedsAttention['items'][number]['reason'], string> = {
  not_booked: 'Paid, no session booked after the reminder',
  coach_canceled: 'You cancelled the session: refund or rebook',
  refunded_booked: 'Refunded, but the session is still booked: cancel it at your scheduler',
};

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * Paying leads the coach should act on: a deposit whose session is still not booked once the lead
 * was reminded, one whose session the coach cancelled (kept for a decision under the flag policy),
 * or a refunded deposit whose session is still in the coach's calendar. Each row opens the lead.
 */
export function NeedsAttentionPanel({ resource }: { resource: AdminResource<NeedsAttention> }) {
  const { data, failed, reload } = resource;
  return (
    <Panel title="Needs attention" id="needs-attention">
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-3 py-2" aria-busy="true">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : data.items.length === 0 ? (
        <EmptyState>Every paid deposit has its session booked or is within its reminder window</EmptyState>
      ) : (
        <ul className="divide-y divide-line/70">
          {data.items.map((item) => (
            <li key={item.leadId} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0">
                <Link
                  to={`/admin/leads/${item.leadId}`}
                  className="font-semibold text-ink underline decoration-ink/25 underline-offset-4 hover:decoration-ink"
                >
                  {item.name}
                </Link>
                <p className="truncate text-sm text-muted">{item.email}</p>
              </div>
              <div className="text-right text-sm">
                <p className={item.reason === 'not_booked' ? 'font-medium text-ink' : 'font-medium text-danger'}>{REASONS[item.reason]}</p>
                <p className="text-muted">
                  {money.format(item.amountCents / 100)} paid <time dateTime={item.paidAt.toISOString()}>{formatDate(item.paidAt)}</time>
                  {item.refundedAt && (
                    <>
                      , refunded <time dateTime={item.refundedAt.toISOString()}>{formatDate(item.refundedAt)}</time>
                    </>
                  )}
                  {item.sessionStartsAt && <>; session {formatDate(new Date(item.sessionStartsAt))}</>}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
