#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml), on Trunk's staging folder:
#   1. builds the app (scripts/build-app.sh: a release build is split into the first module and the
#      parts loaded once the page is interactive; `trunk serve` gets one debug module);
#   2. after a release build, renders the first view into index.html and writes the service worker
#      there (src/bin/prerender.rs). `trunk serve` skips this: the page then has no first view and no
#      worker, so a developer always sees the latest build.
set -euo pipefail
cd "${TRUNK_SOURCE_DIR:-.}"
if [ "${TRUNK_PROFILE:-}" = release ]; then
  bash scripts/build-app.sh release "$TRUNK_STAGING_DIR"
  cargo run --quiet --locked --bin prerender -- "$TRUNK_STAGING_DIR" static/sw.js
else
  bash scripts/build-app.sh dev "$TRUNK_STAGING_DIR"
fi
