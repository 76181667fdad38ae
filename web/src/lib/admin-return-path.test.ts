import { describe, expect, it } from 'vitest';
import { adminReturnPath, signInPathFor } from './admin-return-path.js';

describe('the page a sign-in returns to', () => {
  it('follows a path under /admin, query and hash kept', () => {
    expect(adminReturnPath('/admin/leads/42?tab=notes#top')).toBe('/admin/leads/42?tab=notes#top');
    expect(adminReturnPath('/admin')).toBe('/admin');
  });

  it('sends anything else to /admin: nothing, other pages, other sites, look-alikes and escapes', () => {
    for (const next of [
      null,
      '',
      '/',
      '/contact',
      '/administrator',
      'https://evil.example/admin',
      '//evil.example/admin',
      '/admin//evil.example',
      '/\\evil.example',
      '/admin\\..\\x',
      '/admin/../contact',
      'javascript:alert(1)',
      ' /admin',
    ]) {
      expect(adminReturnPath(next), String(next)).toBe('/admin');
    }
  });

  it('names the page in /auth?next= only when it is not the admin home', () => {
    expect(signInPathFor('/admin')).toBe('/auth');
    expect(signInPathFor('/admin/leads?q=ada')).toBe('/auth?next=%2Fadmin%2Fleads%3Fq%3Dada');
  });
});
