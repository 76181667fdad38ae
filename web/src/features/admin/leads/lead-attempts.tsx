import type { LeadDetail } from '#machines/protocol/admin/leads.js';
import { formatDateTime } from '../api.js';
import { Badge } from '../lead-parts.js';
import { tierLabel } from './leads-api.js';
import { Panel } from '../states.js';

type CaptureAttempt = LeadDetail['captureAttempts'][number];

/** What the attempt's result was, in words: the grading it had, or none yet. */
function outcome(attempt: CaptureAttempt): string {
  if (!attempt.tier) return 'Not graded';
  const score = attempt.qualification_score === null ? '' : `, qualification ${attempt.qualification_score}`;
  return `${tierLabel(attempt.tier)}${attempt.archetype ? ` · ${attempt.archetype}` : ''}${score}`;
}

/**
 * Someone captured this lead's address without having proven it (decision 0044): what they typed
 * and were graded is kept here, marked Unconfirmed, and changes nothing of the lead until the
 * confirmation link mailed to the address is followed. Shown only when there is one.
 */
export function CaptureAttemptsPanel({ attempts }: { attempts: CaptureAttempt[] }) {
  return (
    <Panel title="Attempts by address" id="lead-attempts">
      <ul className="flex flex-col gap-3">
        {attempts.map((attempt) => (
          <li
            key={attempt.id}
            data-attempt={attempt.confirmed_at ? 'confirmed' : 'unconfirmed'}
            className="rounded-xl border border-line p-3"
          >
            <p className="font-semibold break-words text-ink">
              {attempt.name} {attempt.confirmed_at ? <Badge tone="good">Confirmed</Badge> : <Badge tone="bad">Unconfirmed</Badge>}
            </p>
            <p className="text-sm text-ink">{outcome(attempt)}</p>
            <p className="text-xs break-words text-muted">
              Typed {attempt.email} · {formatDateTime(attempt.created_at)}
              {attempt.confirmed_at
                ? ` · confirmed ${formatDateTime(attempt.confirmed_at)}`
                : attempt.confirmation_sent_at
                  ? ` · confirmation link sent ${formatDateTime(attempt.confirmation_sent_at)}`
                  : ' · no confirmation sent yet'}
            </p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
