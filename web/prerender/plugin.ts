import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { PRERENDERED_PAGES, type PageRenderer } from '#machines/protocol/pages.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';

/**
 * After the browser build, builds the public pages' renderer (web/src/entry-server.tsx, with
 * React's server renderer, for Node) beside the build (`<outDir>-ssr`), and renders every page
 * once with the default settings, so a page that cannot render fails the build rather than the
 * server. The server renders the pages with the coach's settings (server/plugins/rendered-pages.ts).
 */
export function prerender(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'hf-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // beside the build, never among the files served; the server looks for it there
      const file = path.join(`${outDir}-ssr`, 'entry-server.mjs');
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: 'src/entry-server.tsx',
          outDir: path.dirname(file),
          emptyOutDir: true,
          // the public files are the browser build's to serve
          copyPublicDir: false,
          rollupOptions: { output: { entryFileNames: path.basename(file) } },
        },
      });
      const renderer = (await import(pathToFileURL(file).href)) as PageRenderer;
      const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      for (const page of [...PRERENDERED_PAGES, null]) await renderer.renderPage(shell, page, DEFAULT_SITE_SETTINGS);
    },
  };
}
