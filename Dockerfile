# syntax=docker/dockerfile:1
# The gateway as a container image. Stage 1 installs everything and builds (TypeScript and the
# playground bundle); stage 2 keeps the build output and production dependencies only, and runs as the
# unprivileged `node` user. Not built by CI (no Docker engine there): see docs/deployment.md.
# Node 24 LTS, as the README recommends (20.19+ still runs the service: --build-arg NODE_VERSION=20).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/engine/package.json ./packages/engine/
# No install scripts: nothing at run time needs them (esbuild and argon2 ship prebuilt binaries as
# optional packages), and some dev tools' scripts would want a C compiler the slim image lacks.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY packages ./packages
COPY src ./src
COPY scripts ./scripts
COPY bench ./bench
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:${NODE_VERSION}-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The engine is a workspace package: node_modules/@gateway/engine links here, to its package.json and dist/.
COPY --from=build /app/packages/engine/package.json ./packages/engine/
COPY --from=build /app/packages/engine/dist ./packages/engine/dist
# Only the embedded engine (no MONGODB_URI) writes to data/, and Node to dist/compile-cache (its cache of the
# service's compiled code, src/main.ts); everything else stays owned by root.
RUN mkdir -p /app/data /app/dist/compile-cache && chown node:node /app/data /app/dist/compile-cache
USER node
EXPOSE 4000
# Slim images have no curl: ask /readyz with Node's own fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The node flags of package.json's `start` script (docs/deployment.md, "Node flags"; a test keeps the two the same).
CMD ["node", "--max-semi-space-size=64", "dist/bundle/main.js"]
