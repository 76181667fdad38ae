import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './precompress/plugin.js';
import { idleModules } from './prerender/idle-modules.js';
import { prerender } from './prerender/plugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  // precompress last: it compresses what the others leave in the build
  plugins: [react(), tailwindcss(), idleModules(), prerender(), precompress()],
  // no source maps: the built site is public, and maps would hand out the whole source with its comments
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  // `npm run dev`: Vite serves the app with hot reload and forwards API and socket calls to the server
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
    },
  },
});
