# The order service image: `node dist/main.js api` or `node dist/main.js worker`
# (see docker-compose.yml), and the local speech engine (`--target engine`). The embedded
# Temporal dev server is not part of the image.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.client.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build
# What npm install brings beside the packages: a static ffmpeg (from a PyPI wheel, hence pip) and
# the Noto fonts PDF results are drawn with, each file's sha256 verified.
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip && rm -rf /var/lib/apt/lists/*
RUN node scripts/install-ffmpeg.mjs && node scripts/install-fonts.mjs

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY --from=build /app/.engines/ffmpeg ./.engines/ffmpeg
COPY --from=build /app/.engines/fonts ./.engines/fonts
COPY config ./config
USER node
CMD ["node", "dist/main.js", "api"]

# The local speech engine: the same install step as npm install (hash-verified model), served
# over the OpenAI-compatible interface.
FROM node:20-bookworm-slim AS engine
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv espeak-ng && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The diarizer's PyTorch: the CPU build (PyPI's own torch is the CUDA one, several GB).
ENV PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu
COPY scripts/install-engines.mjs ./scripts/
RUN node scripts/install-engines.mjs
COPY engines ./engines
USER node
EXPOSE 8700
CMD [".engines/venv/bin/python", "engines/server.py", "--host", "0.0.0.0", "--port", "8700", "--model-dir", ".engines/models/whisper-base"]
