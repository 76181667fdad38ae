import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { isPagePath } from '#machines/protocol/pages.js';
import { routes } from './routes.js';

/** Every path the browser's router draws a page for (a catch-all left out; a lead's id filled in). */
function pagePaths(list: RouteObject[], parent = ''): string[] {
  return list.flatMap((route) => {
    if (route.path === '*') return [];
    const own = route.index
      ? parent || '/'
      : route.path === undefined
        ? parent
        : `${parent}/${route.path.replace(':id', '0b6f5a4e-2f43-4c1e-9a34-7d1c2b3a4f5e')}`;
    return [
      ...(route.index || (route.path !== undefined && !route.children) ? [own] : []),
      ...pagePaths(route.children ?? [], own === '/' ? '' : own),
    ];
  });
}

describe("the server's list of pages", () => {
  it('holds every page the router draws, so none is answered 404', () => {
    const paths = pagePaths(routes);
    expect(paths).toContain('/confirm');
    expect(paths).toContain('/admin/emails');
    expect(paths.filter((path) => !isPagePath(path))).toEqual([]);
  });
});
