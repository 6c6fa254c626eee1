#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): after a release build, renders the first view into the
# staging folder's index.html and writes the service worker there (src/bin/prerender.rs).
# `trunk serve` (a debug build) skips it: the page then has no first view and no worker, so a
# developer always sees the latest build.
set -euo pipefail
[ "${TRUNK_PROFILE:-}" = release ] || exit 0
cd "${TRUNK_SOURCE_DIR:-.}"
cargo run --quiet --locked --bin prerender -- "$TRUNK_STAGING_DIR" static/sw.js
