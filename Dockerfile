# syntax=docker/dockerfile:1
# Poshan: one image serving the web client, REST, tRPC (HTTP + WebSocket).
# Builds and runs on the current Node LTS (the app supports Node >= 20.19).
# docker compose up (see docker-compose.yml) runs it against Postgres.

ARG NODE_IMAGE=node:22-bookworm-slim

# Every dependency, for the client build.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm runs it after installing (postinstall): checked speed patches to dependencies (decision 100).
COPY scripts/patch-deps.mjs ./scripts/
# npm install of the locked versions when npm ci refuses a lock that lacks other platforms' optional
# native packages (see .ci/run).
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund

# The web client (vite) into dist/.
FROM deps AS client
COPY index.html vite.config.ts tsconfig.json ./
COPY public ./public
COPY src ./src
COPY server ./server
RUN npx vite build

# Runtime dependencies only (tsx runs the TypeScript server).
FROM ${NODE_IMAGE} AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-deps.mjs ./scripts/
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY server ./server
COPY migrations ./migrations
COPY --from=client /app/dist ./dist
# The embedded database (when DATABASE_URL is unset) and its secrets live in /data, owned by the app's user.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server handles SIGTERM itself: it closes sockets and the database, then exits.
CMD ["node", "--import", "tsx", "server/main.ts"]
