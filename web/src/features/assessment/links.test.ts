import { describe, expect, it } from 'vitest';
import { schedulingUrl } from './links.js';

describe('schedulingUrl', () => {
  it('prefills name and email on the default scheduling page', () => {
    expect(schedulingUrl({ name: 'Ada Lovelace', email: 'ada@example.com' }, null)).toBe(
      'https://calendly.com/?name=Ada+Lovelace&email=ada%40example.com',
    );
  });

  it('uses the booking URL the coach set in Integrations', () => {
    expect(schedulingUrl({ name: null, email: 'a@b.co' }, 'https://cal.example.com/coach/45min')).toBe(
      'https://cal.example.com/coach/45min?email=a%40b.co',
    );
  });
});
