import type { FastifyInstance } from 'fastify';
import { monitorClientFrameSchema, type MonitorServerFrame } from '#machines/protocol/monitor.js';
import { MonitorHub } from '#core/slack/monitor-hub.js';
import { monitorCounts } from '#core/slack/monitor-store.js';
import { sessionToken } from '../auth/guard.js';
import type { RouteDeps } from '../routes/deps.js';
import { readClientFrame } from './frames.js';

/**
 * The team-chat monitor's socket at /api/functions/slack-monitor, registered inside the admin
 * plugin (server/admin/index.ts), whose hooks upgrade only an admin's session opened from the site
 * itself; its opening snapshot is GET /api/admin/monitor. The browser sends {type: get_status} and
 * hears status, slack_message, assessment_processed, assessment_error and error frames. Frames come
 * from the workers through Redis, so every server process's monitors hear every event.
 */
export function monitorSocket(
  app: FastifyInstance,
  deps: Pick<RouteDeps, 'config' | 'pool' | 'redis' | 'adminSockets'>,
  done: () => void,
): void {
  const statusFrame = async (): Promise<MonitorServerFrame> => {
    const counts = await monitorCounts(deps.pool);
    return deps.config.SLACK_SIGNING_SECRET
      ? { type: 'status', status: 'listening', ...counts, message: 'Listening for Slack events.' }
      : { type: 'status', status: 'not_configured', ...counts, message: 'Slack events are not configured: set SLACK_SIGNING_SECRET.' };
  };
  const hub = new MonitorHub(
    deps.redis,
    deps.config.QUEUE_PREFIX,
    () =>
      void statusFrame().then(
        (frame) => hub.sendLocal(frame),
        (error: unknown) => app.log.warn({ err: error }, 'monitor counters unavailable'),
      ),
    app.log,
  );
  app.addHook('onClose', () => hub.stop());

  app.get('/api/functions/slack-monitor', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const send = (frame: MonitorServerFrame | string) => {
      if (socket.readyState === socket.OPEN) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    };
    const stopListening = hub.listen(send);
    const session = deps.adminSockets.watch(socket, sessionToken(request), request.log);

    socket.on('message', (raw) => {
      // get_status is the only frame a monitor sends
      const read = readClientFrame(raw, monitorClientFrameSchema, request.log);
      if ('error' in read) return send({ type: 'error', error: read.error });
      session
        .stillSignedIn()
        .then(async (signedIn) => signedIn && send(await statusFrame()))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'monitor status failed');
          send({ type: 'error', error: 'Could not read the monitor counters right now; try again.' });
        });
    });
    socket.on('close', stopListening);
  });
  done();
}
