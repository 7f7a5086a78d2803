# syntax=docker/dockerfile:1
# Vitrina's production image (docs/deployment.md): the PWA built in a throwaway stage, then the server with its
# production dependencies only, run as the unprivileged `node` user. Build from the repository root:
#   docker build --build-arg BUILD_ID=$(git rev-parse --short=12 HEAD) -t vitrina .
# Node as in package.json's engines; bookworm-slim (glibc) because sharp and @node-rs/argon2 ship glibc binaries.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# --- build: every dependency, then `vite build` (the PWA, its precompressed copies and the first screen's renderer).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build's id names the persisted client caches (vite.config.ts); .git is not in the context, so pass it.
ARG BUILD_ID=docker
ENV BUILD_ID=${BUILD_ID}
# Source maps stay out of the image (29 MB of the build's 46 MB): only developer tools read them, and they are made
# again by any build of the same commit.
RUN npm run build && find dist -name '*.map' -delete
# The server compiled to plain JavaScript (vite/build-server.ts): run by Node alone, without tsx's loader and the
# sources it would transform in memory (docs/decisions/0026-server-precompiled.md). Its source maps stay out too.
RUN npx tsx vite/build-server.ts && find dist-server -name '*.map' -delete

# --- deps: production dependencies only (vite, esbuild, the test tools and every browser-only package — React, Mantine,
# the face detector, maps — are dev dependencies, bundled into dist/ and dist-server/ by the build stage),
# then pruned of what Node never loads (deploy/prune-runtime-modules.sh: source maps, typings, browser bundles).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY deploy/prune-runtime-modules.sh ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && sh prune-runtime-modules.sh

# --- runtime
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX: glibc gives each thread that allocates (sharp's, the moderation worker's) its own memory arenas
# and never returns them; two arenas keep the process's resident memory ~100 MB lower after photo uploads
# (docs/benchmarks.md, server memory). MALLOC_MMAP_THRESHOLD_: blocks of 128 KB and more (decoded photos, the model's
# buffers) are mapped on their own and returned to the system when freed, instead of staying in the heap (decision
# 0026). glibc reads both only at process start, so they are set here and in `npm start`.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    DIST_DIR=/app/dist
WORKDIR /app
# What the server reads at run time, owned by root and read-only for the process: its compiled code (dist-server/),
# the files beside its sources (migrations and reference data inside server/db, word lists), the contract it shares
# with the client (and the TypeScript sources, for the operators' commands under tsx: docs/deployment.md), the
# translations, and the built PWA.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY server ./server
COPY contract ./contract
COPY locales ./locales
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
# DATA_DIR: the PGlite database and photos of a single node; with DATABASE_URL and S3 only small leftovers (mail
# written as files when SMTP_URL is unset).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# main.ts drains on SIGTERM (up to 10 s of requests in flight, 15 s in all): give `docker stop` a timeout above 15 s.
STOPSIGNAL SIGTERM
# Liveness only (/api/health touches no dependency); balancers and compose check /api/ready. The image has no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Not `npm start` (it builds first, with vite, which is not installed here); node itself, so it receives SIGTERM. The
# same V8 setting as `npm start`: a 4 MB young generation (decision 0026).
CMD ["node", "--max-semi-space-size=4", "dist-server/main.js"]
