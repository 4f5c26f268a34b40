# syntax=docker/dockerfile:1
# The gateway. Alone it runs on the embedded engine (data in the /data volume); with ENGINE_URL and
# REDIS_URL it is one stateless node of the distributed setup (docker/compose.yml).
#   docker build -t search-gateway .
#   docker run -p 8000:8000 -v gateway-data:/data -e ADMIN_USER=admin -e ADMIN_PASSWORD=… search-gateway

ARG NODE_IMAGE=node:20-bookworm-slim

# Compile: every dependency, then tsc over the tree tsconfig.json names.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY lib ./lib
COPY spec ./spec
COPY bench ./bench
COPY conformance ./conformance
RUN node_modules/.bin/tsc -p tsconfig.json

# Production dependencies only, installed apart so no build tool reaches the final image.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# The console (console/, planned): built when the folder exists, an empty console/dist otherwise.
# Hook: once console/ has a package.json with a "build" script writing console/dist, nothing here
# changes; the gateway finds the files in /app/console/dist.
FROM ${NODE_IMAGE} AS console
WORKDIR /src
COPY . .
RUN if [ -f console/package.json ]; then \
      npm --prefix console ci --no-audit --no-fund && npm --prefix console run build; \
    else \
      mkdir -p console/dist; \
    fi

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data
COPY --from=prod-deps /src/package.json ./
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist/lib ./dist/lib
COPY --from=console /src/console/dist ./console/dist
# The non-root user of the node image owns the data directory; a named volume mounted there
# starts with this ownership.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8000
# /_gateway/ready answers without credentials: 200 once the node can serve (engine reachable).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/_gateway/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (graceful shutdown: streams end cleanly, writes drain).
CMD ["node", "dist/lib/main.js"]
