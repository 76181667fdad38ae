import { describe, expect, it } from 'vitest';
import { bookingLink } from './booking-link.js';

describe('bookingLink', () => {
  it('prefills name and email on the default scheduling page', () => {
    expect(bookingLink({ name: 'Ada Lovelace', email: 'ada@example.com' }, null, null)).toBe(
      'https://calendly.com/?name=Ada+Lovelace&email=ada%40example.com',
    );
  });

  it('uses the booking URL the coach set and carries the reference for Calendly and Cal.com', () => {
    expect(bookingLink({ name: null, email: 'a@b.co' }, 'https://cal.example.com/coach/45min?x=1#top', 'f-123')).toBe(
      'https://cal.example.com/coach/45min?x=1&email=a%40b.co&utm_content=f-123&metadata%5Bref%5D=f-123#top',
    );
  });

  it('leaves the page as it is when there is nothing to add', () => {
    expect(bookingLink({ name: null, email: null }, 'https://calendly.com/coach', null)).toBe('https://calendly.com/coach');
  });
});
