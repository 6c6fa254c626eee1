#!/usr/bin/env bash
# Installs what the playground needs and is missing; skips everything already in place.
#
#   scripts/setup.sh           tools to build and serve (wasm32 target, trunk, wasm-bindgen, wasm-opt)
#   scripts/setup.sh --tests   the same, plus Chromium, ChromeDriver and the end-to-end test's npm packages
#
# Everything comes from the package registries (crates.io, npm, Debian); nothing is downloaded
# from anywhere else.
set -euo pipefail

TRUNK_VERSION=0.21.14          # Trunk 0.22 needs Rust 1.96
BINARYEN_VERSION=132           # wasm-opt, from npm's binaryen package
WASM_SPLIT_VERSION=0.2.4       # wasm-split-cli, from crates.io's wasm_split_cli_support

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

with_tests=false
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=true ;;
    *) echo "setup.sh: unknown option '$arg' (expected --tests)" >&2; exit 2 ;;
  esac
done

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup.sh: '$*' needs root (run as root or install sudo)" >&2; exit 1
  fi
}

for tool in cargo rustup npm; do
  command -v "$tool" >/dev/null || { echo "setup.sh: '$tool' is required but not installed" >&2; exit 1; }
done

# 1. The wasm32 target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Both installs build in one target directory, so that the dependencies they share (same
# versions, same features) compile once; it stays under target/ (ignored by git) for a re-run.
export CARGO_TARGET_DIR="$root/target/setup-tools"

# 2. Trunk, pinned. Without its default features: the playground builds offline
#    (`trunk build --release --offline`, the tools come from this script) and serves over plain
#    HTTP on 127.0.0.1, so it needs neither the self-update check (`update_check`) nor a TLS stack
#    (`rustls`: HTTPS downloads of tools, `serve` over TLS); Trunk gates both behind those features.
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (a few minutes, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features
fi

# 3. wasm-bindgen-cli, exactly the version of the wasm-bindgen crate in Cargo.lock. Installed
#    without --locked: one of its locked dependencies is no longer on the registry.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
[ -n "$wb_version" ] || { echo "setup.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $wb_version" ]; then
  say "installing wasm-bindgen-cli $wb_version"
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi
if ! grep -q "wasm_bindgen = \"$wb_version\"" Trunk.toml; then
  echo "setup.sh: Trunk.toml [tools] wasm_bindgen must be \"$wb_version\", the version in Cargo.lock" >&2
  exit 1
fi

# 4. wasm-split-cli, which cuts the release build's app at its split points (scripts/build-app.sh).
#    Pinned; its output must match the runtime of the wasm_split_helpers crate in Cargo.lock.
#    (It has no --version: cargo's list of installed crates says which one is there.)
if ! command -v wasm-split-cli >/dev/null \
  || ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
fi

# 5. wasm-opt from binaryen.
if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing binaryen@$BINARYEN_VERSION (wasm-opt) from npm"
  as_root npm install -g "binaryen@$BINARYEN_VERSION"
fi

if $with_tests; then
  # 6. Debian's Chromium and its driver, for wasm-bindgen-test and the end-to-end test, and a
  #    CJK font so that the Chinese UI in screenshots shows characters, not empty boxes.
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then
    say "installing chromium, chromium-driver and fonts-wqy-microhei from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei \
      >/dev/null
  fi
  # 7. The end-to-end test's packages (playwright-core drives the Debian Chromium; it never
  #    downloads a browser of its own).
  if [ ! -d tests/e2e/node_modules/playwright-core ]; then
    say "installing the end-to-end test's npm packages"
    (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

say "ready"
