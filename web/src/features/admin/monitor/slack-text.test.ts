import { describe, expect, it } from 'vitest';
import { parseSlackText } from './slack-text.js';

describe('parseSlackText', () => {
  it('marks bold, italic, strike and code, leaving the rest plain', () => {
    expect(parseSlackText('*Assessment:* LDR-7 _now_ ~old~ `k=1`')).toEqual([
      { kind: 'bold', text: 'Assessment:' },
      { kind: 'text', text: ' LDR-7 ' },
      { kind: 'italic', text: 'now' },
      { kind: 'text', text: ' ' },
      { kind: 'strike', text: 'old' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'k=1' },
    ]);
  });

  it('keeps underscores inside words (snake_case keys) as text', () => {
    expect(parseSlackText('key x_9_2 done')).toEqual([{ kind: 'text', text: 'key x_9_2 done' }]);
  });

  it('turns safe links into links and everything else into text', () => {
    expect(parseSlackText('<https://example.com/r?a=1&amp;b=2|the report> and <mailto:jo@example.com>')).toEqual([
      { kind: 'link', href: 'https://example.com/r?a=1&b=2', text: 'the report' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', href: 'mailto:jo@example.com', text: 'jo@example.com' },
    ]);
    expect(parseSlackText('<javascript:alert(1)|click>')).toEqual([{ kind: 'text', text: 'click' }]);
  });

  it('shows user, channel and special mentions by name, and unescapes entities', () => {
    expect(parseSlackText('<@U123> in <#C9|hiring>: 3 &lt; 5 &amp; <!here>')).toEqual([
      { kind: 'text', text: '@U123' },
      { kind: 'text', text: ' in ' },
      { kind: 'text', text: '#hiring' },
      { kind: 'text', text: ': 3 < 5 & ' },
      { kind: 'text', text: '@here' },
    ]);
  });
});
