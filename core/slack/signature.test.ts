import { describe, expect, it } from 'vitest';
import { SlackSignatureError, slackSignature, verifySlackSignature } from './signature.js';

const secret = '8f742231b10e8888abcd99yyyzzz85a5';
const body = Buffer.from('{"type":"event_callback","event_id":"Ev1"}');
const now = 1_800_000_000;

function check(overrides: Partial<Parameters<typeof verifySlackSignature>[0]>) {
  const timestamp = String(now);
  return () =>
    verifySlackSignature({
      secret,
      rawBody: body,
      timestamp,
      signature: slackSignature(secret, timestamp, body),
      nowSeconds: now,
      ...overrides,
    });
}

describe('verifySlackSignature', () => {
  it('accepts the signature Slack computes for the body and timestamp', () => {
    expect(check({})).not.toThrow();
  });

  it("reproduces the worked example in Slack's request-verification guide", () => {
    const documented =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature(secret, '1531420618', documented)).toBe('v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503');
  });

  it('refuses a body changed after signing', () => {
    const timestamp = String(now);
    const signature = slackSignature(secret, timestamp, body);
    expect(() =>
      verifySlackSignature({ secret, rawBody: Buffer.concat([body, Buffer.from(' ')]), timestamp, signature, nowSeconds: now }),
    ).toThrow(/does not match/);
  });

  it('refuses a signature made with another secret', () => {
    const timestamp = String(now);
    expect(check({ signature: slackSignature('another-secret', timestamp, body) })).toThrow(SlackSignatureError);
  });

  it('refuses a timestamp older than five minutes even with a valid signature for it', () => {
    const old = String(now - 301);
    expect(check({ timestamp: old, signature: slackSignature(secret, old, body) })).toThrow(/more than 5 minutes/);
    const recent = String(now - 299);
    expect(check({ timestamp: recent, signature: slackSignature(secret, recent, body) })).not.toThrow();
  });

  it('names the missing or malformed header', () => {
    expect(check({ timestamp: undefined })).toThrow(/X-Slack-Request-Timestamp/);
    expect(check({ timestamp: '12ab' })).toThrow(/X-Slack-Request-Timestamp/);
    expect(check({ signature: undefined })).toThrow(/X-Slack-Signature/);
    expect(check({ signature: 'v1=abc' })).toThrow(/X-Slack-Signature/);
    expect(check({ signature: ['v0=a', 'v0=b'] })).toThrow(/X-Slack-Signature/);
  });
});
