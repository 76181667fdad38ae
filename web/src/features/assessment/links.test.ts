import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../lib/flows/storage';
import { schedulingUrl } from './links';

describe('schedulingUrl', () => {
  it('prefills name and email on the default scheduling page', () => {
    expect(schedulingUrl({ name: 'Ada Lovelace', email: 'ada@example.com' }, memoryStore())).toBe('https://calendly.com/?name=Ada+Lovelace&email=ada%40example.com');
  });

  it('uses the booking URL saved in the Integrations settings', () => {
    const store = memoryStore();
    store.setItem('hf:integrations', JSON.stringify({ scheduling: { enabled: true, bookingUrl: 'https://cal.example.com/coach/45min' } }));
    expect(schedulingUrl({ name: null, email: 'a@b.co' }, store)).toBe('https://cal.example.com/coach/45min?email=a%40b.co');
  });
});
