# syntax=docker/dockerfile:1
# The Plant Store mock as an image. Default: the stateful mock on 4010, state in the /data volume.
#   docker build -t plant-store-mock .
#   docker run -p 4010:4010 -v plant-state:/data plant-store-mock
#   docker run --network host plant-store-mock contract --base-url http://localhost:8080 --token T
#   docker run -p 4011:4011 plant-store-mock prism
ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# npm pack runs `prepare` (tsc) and keeps exactly the files package.json ships; the lockfile
# goes along so the runtime stage installs the same production dependencies.
RUN npm pack --pack-destination /tmp \
 && mkdir /app \
 && tar -xzf /tmp/plant-store-mock-*.tgz -C /app --strip-components=1 \
 && cp package-lock.json /app/

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    PRISM_PORT=4011 \
    MOCK_STATE_FILE=/data/plants.state \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache
WORKDIR /app
COPY --from=build /app ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && mkdir -p /data \
 && chown node:node /data
USER node
VOLUME /data
EXPOSE 4010 4011
# Follows the mode: the mock's /__mock/health on $PORT, or the Prism mock's port ($PRISM_PORT).
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "/app/sandbox/healthcheck.mjs"]
ENTRYPOINT ["/bin/sh", "/app/sandbox/entrypoint.sh"]
CMD ["mock"]
