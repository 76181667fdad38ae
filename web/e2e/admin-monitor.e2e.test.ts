import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackSignature } from '#core/slack/signature.js';
import { startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openAdminPage, signedInAdminState, toast, type StorageState } from './pages.js';

const SECRET = `e2e-slack-${randomBytes(6).toString('hex')}`;
const SHOTS = '/tmp/shots-monitor';

describe('the team-chat monitor in a real browser', () => {
  let browser: Browser;
  let server: AssessmentServer;
  let signedIn: StorageState;
  let sent = 0;

  /** Posts a bot message to the Events API URL exactly as Slack would: signed, over HTTP. */
  async function slackBotMessage(text: string) {
    sent += 1;
    const body = JSON.stringify({
      type: 'event_callback',
      event_id: `Ev${randomBytes(6).toString('hex')}`,
      event: {
        type: 'message',
        channel: 'C0LEADERS',
        bot_id: 'B0HIRING',
        username: 'Hiring Bot',
        text,
        ts: `${Math.floor(Date.now() / 1000)}.${String(sent).padStart(6, '0')}`,
      },
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await fetch(`${server.url}/api/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(SECRET, timestamp, body),
      },
      body,
    });
    expect(response.status).toBe(200);
  }

  async function monitorPage(viewport: { width: number; height: number } = DESKTOP, { fakeClock = false } = {}) {
    const { context, page, errors } = await openAdminPage(browser, signedIn, viewport);
    // the page's timers on a clock the test can run ahead; it keeps time with the real one meanwhile
    if (fakeClock) await context.clock.install();
    await page.goto(`${server.url}/admin/monitor`);
    await page.getByRole('heading', { level: 1, name: 'Team-chat Monitor' }).waitFor();
    return { context, page, errors };
  }

  const status = (page: Page) => page.getByTestId('monitor-status');
  const counter = (page: Page, label: string) => page.locator(`[data-counter="${label}"] dd`);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startAssessmentServer({ SLACK_SIGNING_SECRET: SECRET, SLACK_ASSESSMENT_QUIET_MS: '60000' });
    browser = await launchBrowser();
    signedIn = await signedInAdminState(browser, server.url, server.pool, `monitor-e2e-${Date.now()}@example.com`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a visitor without a session to /auth, and its socket is refused by the server', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/monitor`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fmonitor`);
    const refused = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve('opened');
          socket.onclose = (event) => resolve(`closed ${event.code}`);
        }),
      `${server.url.replace(/^http/, 'ws')}/api/functions/slack-monitor`,
    );
    expect(refused).toBe('closed 1006');
    await context.close();
  });

  it('shows a signed Slack bot message and the assessment it completes, live, with counters from the server', async () => {
    await server.workers(['slack']);
    const { context, page, errors } = await monitorPage();
    await expect.poll(() => status(page).textContent()).toBe('Connected to Slack');
    await page.getByText('No bot messages yet').waitFor();
    expect(await counter(page, 'Bot Messages').textContent()).toBe('0');

    const key = `LDR-${randomBytes(3).toString('hex')}`;
    await slackBotMessage(`New leadership assessment\n*Assessment:* ${key}\n*Candidate:* Priya Natarajan`);
    const feed = page.getByRole('list', { name: 'Recent bot messages' });
    await feed.getByText('Priya Natarajan').waitFor();
    await expect.poll(() => counter(page, 'Active Assessments').textContent()).toBe('1');
    expect(await feed.getByText('Bot', { exact: true }).count()).toBe(1);
    expect(await feed.getByText('Hiring Bot').count()).toBe(1);

    await slackBotMessage(`Assessment: ${key}\nStatus: complete`);
    const completed = page.getByRole('list', { name: 'Completed assessments' });
    await completed.getByText('Priya Natarajan').waitFor();
    expect(await completed.getByText(key).count()).toBe(1);
    expect(await completed.getByText('2 messages').count()).toBe(1);
    await expect.poll(() => counter(page, 'Assessments Processed').textContent()).toBe('1');
    expect(await counter(page, 'Bot Messages').textContent()).toBe('2');
    expect(await counter(page, 'Messages Grouped').textContent()).toBe('2');
    expect(await counter(page, 'Active Assessments').textContent()).toBe('0');

    // a complete group naming no candidate is the spec's assessment error
    await slackBotMessage(`Assessment: ANON-${key}\nStatus: done`);
    await toast(page, 'Assessment Error').waitFor();
    expect(await toast(page, `Assessment ANON-${key}: none of its 1 messages names a candidate`).count()).toBe(1);

    // what was shown survives a reload: it is read back from the database
    await page.reload();
    await page.getByRole('list', { name: 'Completed assessments' }).getByText('Priya Natarajan').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/monitor-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reconnects 3 s after the server drops the socket, and not after Disconnect', async () => {
    const { context, page } = await monitorPage(MOBILE, { fakeClock: true });
    await expect.poll(() => status(page).textContent()).toBe('Connected to Slack');
    await page.screenshot({ path: `${SHOTS}/monitor-390.png`, fullPage: true });
    const sockets = () => server.app.websocketServer.clients.size;
    expect(sockets()).toBe(1);

    for (const client of server.app.websocketServer.clients) client.terminate();
    await expect.poll(() => status(page).textContent()).toBe('Disconnected from monitor');
    await page.getByText('Reconnecting in 3 seconds...').waitFor();
    await expect.poll(() => status(page).textContent(), { timeout: 6_000 }).toBe('Connected to Slack');
    expect(sockets()).toBe(1);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Disconnected from monitor');
    await expect.poll(sockets).toBe(0);
    // every timer due in the next 4 s fires now: a reconnection would be one of them
    await page.clock.runFor(4_000);
    expect(await status(page).textContent()).toBe('Disconnected from monitor');
    expect(sockets()).toBe(0);

    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Connected to Slack');
    await context.close();
  });
});
