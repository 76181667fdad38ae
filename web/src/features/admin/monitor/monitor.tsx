import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { monitorConnectionMachine, monitorStatusText, monitorTexts } from '#machines/monitor-connection/monitor-connection.machine.js';
import { ADMIN_LIVE_SESSION_ENDED } from '#machines/protocol/admin-live.js';
import {
  MONITOR_ASSESSMENT_LIMIT,
  MONITOR_MESSAGE_LIMIT,
  type BotMessage,
  type MonitorServerFrame,
  type MonitorSnapshot,
  type ProcessedAssessment,
  monitorSnapshotSchema,
} from '#machines/protocol/monitor.js';
import { Button, cx, useToast } from '#web/components/ui/index.js';
import { signInPathFor } from '#web/lib/admin-return-path.js';
import { loadSession } from '#web/lib/session.js';
import { formatDateTime, useAdminResource } from '../api.js';
import { monitorSocketActor, type MonitorSocketHandlers } from './monitor-socket.js';
import { SlackText } from './slack-text.js';
import { EmptyState, ErrorState, Panel, ScreenHeader, Skeleton } from '../states.js';

/** The monitor's toasts. */
const MONITOR_TOASTS = {
  assessmentError: 'Assessment Error',
  assessmentErrorFallback: 'Failed to process assessment',
  connectionError: 'Connection Error',
} as const;

const numberFormat = new Intl.NumberFormat('en-US');
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** A bot message's identity: Slack's channel and ts name one message. */
const messageKey = (message: BotMessage) => `${message.channel}:${message.timestamp}`;

/** Applies a pushed frame to what the screen shows; the lists keep the product's latest 50 and 20. */
function applyFrame(current: MonitorSnapshot, frame: MonitorServerFrame): MonitorSnapshot {
  switch (frame.type) {
    case 'status':
      return { ...current, stats: frame.stats, activeAssessments: frame.activeAssessments };
    case 'slack_message': {
      const key = messageKey(frame.data);
      const others = current.messages.filter((message) => messageKey(message) !== key);
      return { ...current, messages: [frame.data, ...others].slice(0, MONITOR_MESSAGE_LIMIT) };
    }
    case 'assessment_processed': {
      const assessment = { ...frame.data, processedAt: frame.data.processedAt ?? new Date().toISOString() };
      const others = current.assessments.filter((item) => item.assessmentKey !== assessment.assessmentKey);
      return { ...current, assessments: [assessment, ...others].slice(0, MONITOR_ASSESSMENT_LIMIT) };
    }
    default:
      return current;
  }
}

const COUNTERS: Array<{ label: string; value: (snapshot: MonitorSnapshot) => number }> = [
  { label: 'Bot Messages', value: (snapshot) => snapshot.stats.totalMessages },
  { label: 'Assessments Processed', value: (snapshot) => snapshot.stats.assessmentsProcessed },
  { label: 'Messages Grouped', value: (snapshot) => snapshot.stats.messagesGrouped },
  { label: 'Active Assessments', value: (snapshot) => snapshot.activeAssessments },
];

function Counters({ snapshot }: { snapshot: MonitorSnapshot | null }) {
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {COUNTERS.map(({ label, value }) => (
        <div
          key={label}
          data-counter={label}
          className="flex flex-col-reverse justify-between gap-2 rounded-3xl border border-line bg-white p-5 shadow-soft"
        >
          <dt className="text-sm font-medium text-muted">{label}</dt>
          <dd className="font-serif text-4xl tracking-tight text-ink">
            {snapshot ? numberFormat.format(value(snapshot)) : <Skeleton className="h-10 w-16" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function CompletedAssessments({ assessments }: { assessments: ProcessedAssessment[] }) {
  return (
    <Panel title="Completed Assessments" id="completed-assessments" footer={`The latest ${MONITOR_ASSESSMENT_LIMIT} are kept here.`}>
      {assessments.length === 0 ? (
        <EmptyState>No assessments completed yet</EmptyState>
      ) : (
        <ul className="-my-2 divide-y divide-line/70" aria-label="Completed assessments">
          {assessments.map((assessment) => (
            <li key={assessment.assessmentKey} className="flex items-start justify-between gap-4 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-ink">{assessment.candidateName}</p>
                <p className="mt-0.5 truncate font-mono text-xs text-muted" title={assessment.assessmentKey}>
                  {assessment.assessmentKey}
                </p>
              </div>
              <div className="shrink-0 text-right text-sm">
                <p className="font-medium text-ink">
                  {assessment.messageCount} {assessment.messageCount === 1 ? 'message' : 'messages'}
                </p>
                {assessment.processedAt && (
                  <time className="text-xs text-muted" dateTime={assessment.processedAt}>
                    {formatDateTime(assessment.processedAt)}
                  </time>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function RecentBotMessages({ messages }: { messages: BotMessage[] }) {
  return (
    <Panel title="Recent Bot Messages" id="recent-bot-messages" footer={`The latest ${MONITOR_MESSAGE_LIMIT} are kept here.`}>
      {messages.length === 0 ? (
        <EmptyState>No bot messages yet</EmptyState>
      ) : (
        <ol className="-my-2 divide-y divide-line/70" aria-label="Recent bot messages">
          {messages.map((message) => {
            const at = new Date(message.timestamp * 1000);
            return (
              <li key={messageKey(message)} className="py-3">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                  <span className="font-mono text-xs text-muted">#{message.channel}</span>
                  {message.bot_id && (
                    <span className="rounded-full bg-ink px-2 py-0.5 text-[0.65rem] font-semibold tracking-wider text-brass-light uppercase">
                      Bot
                    </span>
                  )}
                  <span className="font-medium text-ink">{message.user ?? message.bot_id ?? 'Unknown'}</span>
                  <time className="ml-auto text-xs text-muted" dateTime={at.toISOString()} title={at.toLocaleString()}>
                    {timeFormat.format(at)}
                  </time>
                </div>
                <p className="mt-1 text-sm break-words whitespace-pre-line text-ink">
                  {message.text ? <SlackText text={message.text} /> : <span className="text-muted italic">(no text)</span>}
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}

/**
 * /admin/monitor, the team-chat monitor: connects on opening; the
 * counters and lists load from GET /api/admin/monitor on each (re)connection, then follow the
 * socket's frames. A close the admin did not ask for reconnects after 3 s; Disconnect does not.
 */
export function MonitorScreen() {
  const { toast } = useToast();
  const navigate = useNavigate();
  const snapshot = useAdminResource('/api/admin/monitor', monitorSnapshotSchema);
  // the server's word on Slack itself, sent first on each connection (null until then): not_configured
  // when no signing secret is set, so no event can arrive
  const [slack, setSlack] = useState<'listening' | 'not_configured' | null>(null);
  // toast, navigate, update and reload keep their identity across renders, so the machine (which
  // useMachine takes once) is made once
  const { update, reload } = snapshot;
  const machine = useMemo(() => {
    const handlers: MonitorSocketHandlers = {
      onFrame: (frame) => {
        if (frame.type === 'status') setSlack(frame.status === 'not_configured' ? 'not_configured' : 'listening');
        if (frame.type === 'assessment_error') {
          toast({
            title: MONITOR_TOASTS.assessmentError,
            description: frame.error || MONITOR_TOASTS.assessmentErrorFallback,
            variant: 'destructive',
          });
        } else if (frame.type === 'error') {
          toast({ title: MONITOR_TOASTS.connectionError, description: frame.error, variant: 'destructive' });
        } else {
          update((current) => applyFrame(current, frame));
        }
      },
      onClosed: (code, opened) => {
        setSlack(null);
        if (code === ADMIN_LIVE_SESSION_ENDED) {
          void loadSession();
          // nothing waits for the navigation: the router shows any failure itself
          void navigate(signInPathFor('/admin/monitor'), { replace: true });
        } else if (!opened) {
          // a refused handshake says nothing about why: the snapshot's request does (a 401 goes to /auth)
          reload();
        }
      },
    };
    return monitorConnectionMachine.provide({ actors: { socket: monitorSocketActor(handlers) } });
  }, [toast, navigate, update, reload]);
  const [connection, send, actor] = useMachine(machine);
  const online = connection.matches('online');
  const connected = connection.matches({ online: 'connected' });
  // connected is said only once the server has told what it hears from Slack: never 'Connected to Slack' before a 'not configured'
  const status = connected && slack === null ? monitorTexts.connecting : monitorStatusText(connection, slack !== 'not_configured');

  useEffect(() => {
    send({ type: 'CONNECT' });
  }, [send]);

  // each connection error is toasted once, not again on every retry while it lasts
  useEffect(() => {
    let shown: string | null = null;
    const subscription = actor.subscribe((next) => {
      const error = next.context.error;
      if (error && error !== shown) toast({ title: MONITOR_TOASTS.connectionError, description: error, variant: 'destructive' });
      shown = error;
    });
    return () => subscription.unsubscribe();
  }, [actor, toast]);

  // a (re)connection reloads what the socket did not carry while it was down
  useEffect(() => {
    if (connected) reload();
  }, [connected, reload]);

  return (
    <>
      <title>Team-chat Monitor | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Team-chat Monitor"
        description="Bot messages from the team chat as they arrive, grouped into assessments by the key in their text."
        actions={
          <Button variant={online ? 'secondary' : 'primary'} size="sm" onClick={() => send({ type: online ? 'DISCONNECT' : 'CONNECT' })}>
            {online ? 'Disconnect' : 'Connect'}
          </Button>
        }
      />
      <p role="status" className="-mt-4 mb-6 flex items-center gap-2 text-sm font-medium text-ink">
        <span
          aria-hidden="true"
          className={cx(
            'size-2.5 rounded-full',
            connected ? 'bg-success' : online ? 'animate-pulse bg-brass motion-reduce:animate-none' : 'bg-muted',
          )}
        />
        <span data-testid="monitor-status">{status}</span>
        {connection.matches('reconnecting') && <span className="font-normal text-muted">Reconnecting in 3 seconds...</span>}
      </p>
      {snapshot.failed && !snapshot.data ? (
        <ErrorState onRetry={snapshot.reload} />
      ) : (
        <div className="flex flex-col gap-6">
          <Counters snapshot={snapshot.data} />
          <div className="grid items-start gap-6 lg:grid-cols-[2fr_3fr]">
            {snapshot.data ? (
              <>
                <CompletedAssessments assessments={snapshot.data.assessments} />
                <RecentBotMessages messages={snapshot.data.messages} />
              </>
            ) : (
              <>
                <Skeleton className="h-64" />
                <Skeleton className="h-64" />
              </>
            )}
          </div>
        </div>
      )}
    </>
  );
}
