import { useEffect, useRef } from 'react';
import type { Actor } from 'xstate';
import { Button } from '#web/components/ui/index.js';
import { MIRROR_TURN_LIMIT } from '#machines/protocol/mirror.js';
import type { MirrorTurn } from '#machines/protocol/common.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { useFlowSnapshot, type ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import { browserMirror } from '#web/lib/flows/browser-machines.js';
import { MirrorComposer, MirrorMessages } from '../mirror-chat.js';
import { StepEyebrow, Waiting } from '../ui.js';
import { ChildFlowFailed, useChildFlow } from './child-flow.js';

type MirrorFlow = ServerFlowHandle<typeof browserMirror>;

/** What the finished chat hands the assessment flow: the server takes the conversation from `mirrorFlowId`. */
export interface MirrorHandover {
  sessionId: string;
  chat: MirrorTurn[];
  mirrorFlowId: string;
}

/**
 * mirror ('Decision Mirror'): the Mirror chat as its own server flow (machine 'mirror'): each
 * SEND is answered by a worker (REPLY_RECEIVED, pushed) and revealed after the server's delay.
 * When the conversation is complete the chat goes to the assessment flow (MIRROR_COMPLETED).
 */
export function MirrorStep({
  slot,
  testing,
  onCompleted,
}: {
  /** The visit's slot (childFlowSlot of the parent flow): one chat per visit of the `mirror` state. */
  slot: string;
  /** The parent flow's testingMode: a test assessment's Mirror is a test flow too. */
  testing: boolean;
  onCompleted: (chat: MirrorHandover) => void;
}) {
  const flow = useChildFlow('mirror', browserMirror, slot, { machine: 'mirror', mode: 'mirror', testing });
  if (flow.status === 'error') return <ChildFlowFailed onRetry={flow.retry} />;
  if (!flow.actor) return <Waiting title="Opening the Mirror" />;
  return <MirrorChat flow={flow} actor={flow.actor} onCompleted={onCompleted} />;
}

function MirrorChat({
  flow,
  actor,
  onCompleted,
}: {
  flow: MirrorFlow;
  actor: Actor<typeof browserMirror>;
  onCompleted: (chat: MirrorHandover) => void;
}) {
  const snapshot = useFlowSnapshot(actor);
  const { context } = snapshot;
  const state = statePath(snapshot.value);
  const log = useRef<HTMLOListElement>(null);
  const complete = state === 'complete';
  const pending = state === 'awaitingReply' || state === 'revealing';

  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [context.messages.length, pending]);

  // the server's copy is the one to hand over: it holds the session id the replies were stored under
  const ready = complete && flow.serverState === 'complete' && flow.pending === 0 && context.sessionId;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <StepEyebrow>A reflective conversation</StepEyebrow>
        <p className="text-sm font-medium text-muted tabular-nums" aria-live="polite">
          {complete ? 'Complete' : `${context.turn}/${MIRROR_TURN_LIMIT} exchanges`}
        </p>
      </div>
      <ol
        ref={log}
        role="log"
        aria-live="polite"
        aria-label="Conversation with the Mirror"
        className="flex max-h-[46vh] min-h-48 flex-col gap-3 overflow-y-auto rounded-3xl border border-line bg-white p-4 sm:p-5"
      >
        <MirrorMessages messages={context.messages} pending={pending} assistantClassName="bg-sand" />
      </ol>
      {complete ? (
        <div className="flex flex-col gap-4 rounded-3xl border border-brass/60 bg-sand p-5">
          <p className="text-base leading-relaxed text-ink">
            Thank you for thinking out loud. Next, the leadership diagnostic shows the patterns behind decisions like this one.
          </p>
          <div>
            <Button
              size="lg"
              disabled={!ready}
              onClick={() => ready && onCompleted({ sessionId: context.sessionId!, chat: context.messages, mirrorFlowId: flow.flowId! })}
            >
              Continue to the Diagnostic
            </Button>
          </div>
        </div>
      ) : (
        <MirrorComposer
          canSend={state === 'chatting'}
          save={context.save}
          onSaveChange={(save) => flow.send({ type: 'SET_SAVE', save })}
          onSend={(text) => flow.send({ type: 'SEND', text })}
        />
      )}
    </div>
  );
}
