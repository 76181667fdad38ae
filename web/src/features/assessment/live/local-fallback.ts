import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { localFallbackMachine } from '#machines/local-fallback/local-fallback.machine.js';
import type { ServerFlow } from '#web/lib/flows/client.js';
import { gradeLocally } from '../local-grading.js';
import type { AssessmentFlow } from './types.js';

/** The server's copy has not graded the answers yet: a locally graded result stays on screen meanwhile. */
const serverIsBehind = (server: ServerFlow) =>
  server.state === 'survey' || server.state.startsWith('processing') || server.state.startsWith('email_capture');

/** The local-fallback policy grading `latest.context` and showing the result through `latest.applyLocal`. */
function localFallbackPolicy(latest: {
  current: { context: Parameters<typeof gradeLocally>[0]; applyLocal: AssessmentFlow['applyLocal'] };
}) {
  return localFallbackMachine.provide({
    actors: { gradeLocally: fromPromise(() => gradeLocally(latest.current.context)) },
    actions: { showLocalResult: (_, { result }) => void latest.current.applyLocal({ type: 'GRADED', result }, serverIsBehind) },
  });
}

/**
 * Runs the local-fallback policy (machines/local-fallback) beside the flow: told when the local
 * copy waits for grading and whether the server can be reached, it grades in the browser when the
 * server cannot. The result goes to the local copy only, held while the server is
 * behind; the survey is still sent as soon as the server answers, so the flow is graded there
 * too, and once it is, the server's result is the one shown.
 */
export function useLocalFallback(flow: AssessmentFlow, grading: boolean, context: Parameters<typeof gradeLocally>[0]) {
  // what the policy's actor and action read when they run: the flow as of the latest render
  const latest = useRef({ context, applyLocal: flow.applyLocal });
  useEffect(() => {
    latest.current = { context, applyLocal: flow.applyLocal };
  });
  // eslint-disable-next-line react-hooks/refs -- the machine only keeps its actor and action; they read the ref when they run, never during render
  const machine = useMemo(() => localFallbackPolicy(latest), []);
  const policy = useActorRef(machine);
  useEffect(() => {
    policy.send({ type: 'FLOW_CHANGED', grading, offline: flow.offline });
  }, [policy, grading, flow.offline]);
}
