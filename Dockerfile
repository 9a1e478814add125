# Kidogo: API and web on one port. Needs a PostgreSQL in DATABASE_URL
# (docker-compose.yml provides one).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@12
COPY . .
RUN pnpm install --frozen-lockfile && pnpm -r --workspace-concurrency=1 run build && pnpm prune --prod --ignore-scripts || true

FROM node:20-bookworm-slim
# MALLOC_MMAP_THRESHOLD_: glibc's malloc returns large blocks instead of
# keeping them in its arenas (as scripts/api-runtime.mjs sets for pnpm start).
ENV NODE_ENV=production PORT=3000 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app /app
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/payg/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
USER node
# A bounded heap (the flags of scripts/api-runtime.mjs) keeps the process near 200-240 MB through a million-row export (see README, Performance).
CMD ["node", "--enable-source-maps", "--max-old-space-size=256", "apps/api/dist/main.js"]
