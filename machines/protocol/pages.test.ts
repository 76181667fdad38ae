import { describe, expect, it } from 'vitest';
import { isPagePath } from './pages.js';

describe('isPagePath', () => {
  it("knows the spec's pages and the admin's screens", () => {
    for (const path of [
      '/',
      '/about',
      '/survey',
      '/results',
      '/mirror',
      '/admin',
      '/admin/',
      '/admin/jobs',
      '/admin/leads/3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
    ]) {
      expect(isPagePath(path), path).toBe(true);
    }
  });

  it('refuses anything else', () => {
    for (const path of ['/nope', '/about/more', '/admin/leads/42', '/admin/unknown', '/api/flows', '/assets/missing.js', '/index.html/x']) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
