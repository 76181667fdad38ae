import type { Plugin } from 'vite';

/** The element of the page listing the modules fetched while the page is idle (web/src/main.ts reads it). */
const IDLE_MODULES_ELEMENT = 'hf-idle-modules';

/** What a tap needs: the site's code (React, the router, the page) and the assessment modal's. */
const WANTED = ['/src/app/start.tsx', '/src/features/assessment/modal.tsx'];

/**
 * Lists in the built page the chunks of the site's code and the assessment's, with every chunk
 * they import, less what the first script already loads: the first script asks for them as
 * module preloads once the page is idle, so they are fetched and compiled, not run.
 */
export function idleModules(): Plugin {
  return {
    name: 'hf-idle-modules',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
        const loaded = new Set<string>();
        const visit = (fileName: string, into: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported, into);
        };
        for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName, loaded);
        const wanted = new Set<string>();
        for (const chunk of chunks.values()) {
          if (WANTED.some((module) => chunk.facadeModuleId?.endsWith(module))) visit(chunk.fileName, wanted);
        }
        const files = [...wanted].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: IDLE_MODULES_ELEMENT },
            children: JSON.stringify(files),
            injectTo: 'body',
          },
        ];
      },
    },
  };
}
