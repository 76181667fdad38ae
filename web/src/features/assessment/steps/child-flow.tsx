import { useMemo } from 'react';
import type { AnyStateMachine } from 'xstate';
import { Button } from '#web/components/ui/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { FlowIdStore } from '#web/lib/flows/storage.js';
import { useServerFlow, type ServerFlowHandle, type UseServerFlowOptions } from '#web/lib/flows/use-server-flow.js';
import { NoticeBox } from '../ui.js';

/**
 * The server flow of a step that runs a machine of its own (the diagnostic, the Mirror): one per
 * visit of the assessment flow's state, kept under the visit's slot (childFlowSlot), so a reload or
 * a second tab resumes the same child flow where it stands, and an event the server applies to the
 * parent meanwhile (a reminder, a booking) leaves it running.
 */
export function useChildFlow<TMachine extends AnyStateMachine>(
  name: FlowMachineName,
  machine: TMachine,
  slot: string,
  start: NonNullable<UseServerFlowOptions['start']>,
): ServerFlowHandle<TMachine> {
  const ids = useMemo(() => new FlowIdStore(), []);
  return useServerFlow(name, machine, {
    flowId: ids.get(slot),
    start,
    onFlowId: (id) => ids.set(slot, id),
    sessionKey: slot,
  });
}

/** A child flow that could not be started or resumed: the product's words and a retry. */
export function ChildFlowFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <NoticeBox notice={{ title: 'Error', description: 'Failed to start assessment. Please try again.' }} />
      <Button onClick={onRetry}>Try Again</Button>
    </div>
  );
}
