import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import type { FlowEngine } from './engine.js';
import type { PushHub } from './push.js';

/**
 * Waits until a flow stands where `settled` says (a grading result arrived, homework went out),
 * hearing the flow's pushes, and gives the flow as it is when the time is up. The flow is read once
 * after listening starts, so an event applied in between is not missed. The named calls use
 * it to answer in their old request-response shape while the work itself runs as the flow's jobs.
 */
export async function waitForFlow(
  deps: { engine: FlowEngine; pushes: PushHub },
  flowId: string,
  settled: (flow: FlowSnapshotResponse) => boolean,
  timeoutMs: number,
): Promise<FlowSnapshotResponse> {
  let wake: () => void = () => {};
  let changed = true;
  const stop = deps.pushes.listen(flowId, () => {
    changed = true;
    wake();
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      // a push only says "read again": the snapshot read is the truth (a lost push costs one poll)
      const flow = changed ? await deps.engine.get(flowId, 'system') : null;
      changed = false;
      if (flow && (settled(flow) || Date.now() >= deadline)) return flow;
      const left = deadline - Date.now();
      if (left <= 0) return deps.engine.get(flowId, 'system');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(
          () => {
            changed = true;
            resolve();
          },
          Math.min(left, 1000),
        );
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    stop();
  }
}
