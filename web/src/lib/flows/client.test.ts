import { describe, expect, it } from 'vitest';
import { EXPECTED_VERSION_HEADER } from '#machines/protocol/api.js';
import { createFlowClient } from './client.js';

const FLOW = {
  flowId: '6f1c1c2e-8d1a-4a43-9a57-1d3f3e2b7c10',
  machine: 'assessmentFlow',
  version: 5,
  state: 'results',
  snapshot: { value: 'results' },
};

/** A client whose requests are kept, each answered with FLOW. */
function recordingClient() {
  const sent: Array<{ headers: Record<string, string>; body: unknown }> = [];
  const client = createFlowClient({
    fetch: (_url, init) => {
      sent.push({ headers: init!.headers as Record<string, string>, body: JSON.parse(init!.body as string) });
      return Promise.resolve(new Response(JSON.stringify(FLOW), { status: 200, headers: { 'content-type': 'application/json' } }));
    },
  });
  return { client, sent };
}

describe('the flow client', () => {
  it('sends an event with its expected version in the body and in the header a proxy may resend it by', async () => {
    const { client, sent } = recordingClient();
    expect(await client.send(FLOW.flowId, { type: 'CONTINUE' }, 4)).toMatchObject({ status: 'applied', flow: { version: 5 } });
    expect(sent[0]!.body).toEqual({ event: { type: 'CONTINUE' }, expectedVersion: 4 });
    expect(sent[0]!.headers[EXPECTED_VERSION_HEADER]).toBe('4');
    // with no version to expect, nothing marks it safe to send again
    await client.send(FLOW.flowId, { type: 'CONTINUE' });
    expect(sent[1]!.body).toEqual({ event: { type: 'CONTINUE' } });
    expect(sent[1]!.headers).not.toHaveProperty(EXPECTED_VERSION_HEADER);
  });
});
