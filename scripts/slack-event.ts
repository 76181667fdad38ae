/*
 * `npm run slack:event -- "TEXT"` posts one bot message to the running site's Slack Events API URL,
 * signed with SLACK_SIGNING_SECRET exactly as Slack signs it: a way to watch the team-chat monitor
 * work before a Slack app is set up. Example:
 *   npm run slack:event -- $'Assessment: LDR-7\nCandidate: Jane Doe'
 *   npm run slack:event -- $'Assessment: LDR-7\nStatus: complete'
 */
import { randomBytes } from 'node:crypto';
import { loadConfigOrExit } from '#core/config/index.js';
import { slackSignature } from '#core/slack/signature.js';

const text = process.argv.slice(2).join(' ').trim();
if (!text) {
  process.stderr.write('Usage: npm run slack:event -- "TEXT" (the bot message to send)\n');
  process.exit(2);
}
const config = loadConfigOrExit();
if (!config.SLACK_SIGNING_SECRET) {
  process.stderr.write('SLACK_SIGNING_SECRET is not set: set it (in .env or the environment) for both the site and this command.\n');
  process.exit(2);
}

const now = Math.floor(Date.now() / 1000);
const body = JSON.stringify({
  type: 'event_callback',
  event_id: `Ev${randomBytes(8).toString('hex').toUpperCase()}`,
  event_time: now,
  event: {
    type: 'message',
    channel: 'C0SAMPLE',
    bot_id: 'B0SAMPLE',
    username: 'Sample Bot',
    text,
    ts: `${now}.${String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0')}`,
  },
});
const url = `${config.publicUrl.replace(/\/$/, '')}/api/slack/events`;
try {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(now),
      'x-slack-signature': slackSignature(config.SLACK_SIGNING_SECRET, String(now), body),
    },
    body,
  });
  process.stdout.write(`${response.status} ${await response.text()}\n`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`Could not reach ${url}: is the site running (npm start)? ${(error as Error).message}\n`);
  process.exit(1);
}
