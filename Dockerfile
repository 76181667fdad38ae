# One image for both the server and the worker; docker-compose.yml picks the command.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node node_modules/vite/bin/vite.js build --config web/vite.config.ts \
 && node --input-type=module -e "await (await import('./scripts/lib/ensure.mjs')).ensureServerBuilt()"
# after the build: npm ci needs the dev dependencies (Vite) that NODE_ENV=production would skip
ENV NODE_ENV=production
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "dist/server/main.mjs"]
