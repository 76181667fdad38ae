# One image for both the server and the worker; docker-compose.yml picks the command.
# Stage 1 builds the site (Vite) and bundles the server and worker (esbuild) with every dependency.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN node node_modules/vite/bin/vite.js build --config web/vite.config.ts \
 && node --input-type=module -e "await (await import('./scripts/lib/ensure.mjs')).ensureServerBuilt()"

# Stage 2 ships what runs: production dependencies, the bundles (with their SQL migrations) and the built site.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# two malloc arenas instead of glibc's 8 per core: about 8 MB less per process under load (docs/decisions/0056)
ENV MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
USER node
EXPOSE 3000
# the V8 heap sizes npm start runs them with (docs/decisions/0032)
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=30", "dist/server/main.mjs"]
