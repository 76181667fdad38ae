import type { Redis } from 'ioredis';
import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import type { FlowSocketServerFrame } from '#machines/protocol/socket.js';
import { hubPublisher, PubSubHub, type HubChannel } from '../pubsub/hub.js';
import type { EventOrigin } from './flow-store.js';

/** One applied event as it travels to the browsers subscribed to its flow. */
export interface FlowPush extends FlowSnapshotResponse {
  origin: EventOrigin;
  event: { type: string };
}

/** Each flow's pushes on a channel of its own: `<prefix>:flow:<flowId>`. */
function flowChannels(prefix: string): HubChannel {
  return { prefix, name: 'flow', keyed: true };
}

/**
 * Publishes pushes on Redis, where every server process (and so every subscribed browser) hears
 * them. Each is published as the socket frame itself, so servers forward it without parsing it.
 */
export function redisPublisher(redis: Redis, prefix: string) {
  const publish = hubPublisher(redis, flowChannels(prefix));
  return async (pushes: FlowPush[]): Promise<void> => {
    for (const push of pushes) {
      const frame: FlowSocketServerFrame = {
        type: 'event',
        flowId: push.flowId,
        version: push.version,
        origin: push.origin,
        event: push.event,
        state: push.state,
        snapshot: push.snapshot,
      };
      await publish(JSON.stringify(frame), push.flowId);
    }
  };
}

/**
 * One server process's end of the pushes: every flow's channel, each serialized `event` frame
 * handed to the listeners (websockets) of its flow, and with the flow's id to those of every flow
 * (the admin's live feed).
 */
export class PushHub extends PubSubHub {
  constructor(redis: Redis, prefix: string, log: { warn: (o: object, m: string) => void }) {
    super(redis, flowChannels(prefix), log);
  }
}
