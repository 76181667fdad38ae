import { describe, expect, it } from 'vitest';
import { calcomSignature, calendlySignature, providerOf, SchedulingSignatureError, verifyCalcom, verifyCalendly } from './signatures.js';

/*
 * Known answers computed with OpenSSL, independent of this code:
 *   printf '%s' "1767225600.$body" | openssl dgst -sha256 -hmac whsec_test_calendly_key -hex
 *   printf '%s' "$body" | openssl dgst -sha256 -hmac calcom-secret -hex
 */
const body = Buffer.from('{"event":"invitee.created","payload":{"email":"ada@example.com"}}');
const calendlyKey = 'whsec_test_calendly_key';
const signedAt = 1_767_225_600;
const CALENDLY_KNOWN = '556916c274289498a201f3c1b7e6d26f5cce898fb3f8be15e9ee384bc73c78e2';
const CALCOM_KNOWN = 'bb47a4b450a42b6f4d2ed460fe779f4b7094f39dad36f4e87e7a0ccd1f928d3d';

describe('Calendly-Webhook-Signature', () => {
  it('matches the HMAC-SHA256 of timestamp.body that OpenSSL computes', () => {
    expect(calendlySignature(calendlyKey, signedAt, body)).toBe(`t=${signedAt},v1=${CALENDLY_KNOWN}`);
    expect(() => verifyCalendly(calendlyKey, body, `t=${signedAt},v1=${CALENDLY_KNOWN}`, signedAt + 10)).not.toThrow();
  });

  it('refuses a changed body, another key, a missing or malformed header', () => {
    const header = `t=${signedAt},v1=${CALENDLY_KNOWN}`;
    expect(() => verifyCalendly(calendlyKey, Buffer.concat([body, Buffer.from(' ')]), header, signedAt)).toThrow(/does not match/);
    expect(() => verifyCalendly('another-key', body, header, signedAt)).toThrow(/does not match/);
    expect(() => verifyCalendly(calendlyKey, body, undefined, signedAt)).toThrow(/Missing Calendly-Webhook-Signature/);
    expect(() => verifyCalendly(calendlyKey, body, `v1=${CALENDLY_KNOWN}`, signedAt)).toThrow(/Malformed/);
    expect(() => verifyCalendly(calendlyKey, body, `t=${signedAt},v1=zz`, signedAt)).toThrow(SchedulingSignatureError);
  });

  it('refuses a timestamp more than 3 minutes old or ahead, and accepts one at the edge', () => {
    const header = calendlySignature(calendlyKey, signedAt, body);
    expect(() => verifyCalendly(calendlyKey, body, header, signedAt + 180)).not.toThrow();
    expect(() => verifyCalendly(calendlyKey, body, header, signedAt + 181)).toThrow(/replay/);
    expect(() => verifyCalendly(calendlyKey, body, header, signedAt - 181)).toThrow(/replay/);
  });

  it('does not let a signature for one timestamp pass with another', () => {
    const forged = `t=${signedAt + 60},v1=${CALENDLY_KNOWN}`;
    expect(() => verifyCalendly(calendlyKey, body, forged, signedAt + 60)).toThrow(/does not match/);
  });
});

describe('X-Cal-Signature-256', () => {
  it('matches the HMAC-SHA256 of the body that OpenSSL computes, in either hex case', () => {
    expect(calcomSignature('calcom-secret', body)).toBe(CALCOM_KNOWN);
    expect(() => verifyCalcom('calcom-secret', body, CALCOM_KNOWN)).not.toThrow();
    expect(() => verifyCalcom('calcom-secret', body, CALCOM_KNOWN.toUpperCase())).not.toThrow();
  });

  it('refuses a changed body, another secret, a missing or malformed header', () => {
    expect(() => verifyCalcom('calcom-secret', Buffer.from('{}'), CALCOM_KNOWN)).toThrow(/does not match/);
    expect(() => verifyCalcom('other', body, CALCOM_KNOWN)).toThrow(/does not match/);
    expect(() => verifyCalcom('calcom-secret', body, undefined)).toThrow(/Missing or malformed/);
    expect(() => verifyCalcom('calcom-secret', body, `sha256=${CALCOM_KNOWN}`)).toThrow(/Missing or malformed/);
  });
});

describe('providerOf', () => {
  it('tells the provider by its signature header', () => {
    expect(providerOf({ 'calendly-webhook-signature': 'x' })).toBe('calendly');
    expect(providerOf({ 'x-cal-signature-256': 'x' })).toBe('calcom');
    expect(providerOf({})).toBeNull();
  });
});
