#!/usr/bin/env bash
# Installs what is missing, then runs every check and test, in order, stopping at the first failure:
#   formatting, clippy (native and wasm32), engine and CLI tests (native), a wasm32 build of the engine
#   and its tests (checked to import nothing from "env"), the engine's goldens on wasm32 under Node,
#   the app's component tests in headless Chromium, the release build, and the
#   end-to-end tests on that build. Ends with the release bundle's gzip size and a test summary.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" --tests
export PATH="$HOME/.cargo/bin:$PATH"
cd "$root"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
started=$SECONDS
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# Runs a command, shows its output and keeps a copy for the summary.
run() { "$@" 2>&1 | tee -a "$log"; }

step "rustfmt"
cargo fmt --all --check

step "clippy, native"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy, wasm32"
cargo clippy --target wasm32-unknown-unknown -p rebalance-engine -p rebalance-playground --all-targets --locked \
  -- -D warnings

step "engine and CLI tests, native"
run cargo test -p rebalance-engine -p rebalance-sim --locked

step "app unit tests, native"
run cargo test -p rebalance-playground --lib --locked

step "engine build and test build, wasm32; no import from \"env\""
cargo build -p rebalance-engine --target wasm32-unknown-unknown --locked
# Builds every engine test for wasm32 and fails if a test binary imports from "env" (an unresolved host
# symbol: the engine must need nothing from the page).
cargo test -p rebalance-engine --target wasm32-unknown-unknown --locked --no-run --message-format=json \
  | node scripts/wasm-no-env-imports.mjs

step "engine tests, wasm32 (Node)"
# wasm-bindgen-test-runner runs #[wasm_bindgen_test]s only (it skips plain #[test]s): tests/wasm.rs
# reproduces every scenario and lesson golden and runs every scenario under Node.
run cargo test -p rebalance-engine --target wasm32-unknown-unknown --locked --test wasm

step "app component tests, headless Chromium"
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} run cargo test -p rebalance-playground \
  --target wasm32-unknown-unknown --locked --test web --test web_share

step "release build"
trunk build --release --offline

step "end-to-end tests, headless Chromium"
# One test file at a time: each starts its own Chromium, and the tests watch a live animation.
(cd tests/e2e && run node --test --test-concurrency=1 --test-reporter=spec)

step "release bundle"
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [ -e "$f" ] || continue
  size=$(gzip -9 -c "$f" | wc -c)
  total=$((total + size))
  printf '  %-48s %8d bytes gzipped\n' "$(basename "$f")" "$size"
done
printf '  %-48s %8d bytes gzipped (%d KiB)\n' "total (wasm + js + css)" "$total" $((total / 1024))

step "summary"
# cargo: "test result: ok. N passed; M failed; ..."   node --test: "ℹ pass N" / "ℹ fail N"
read -r passed failed < <(awk '
  /test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed;?/) p += $(i-1); if ($i ~ /^failed;?/) f += $(i-1) } }
  /^ℹ pass / { p += $3 }
  /^ℹ fail / { f += $3 }
  END { print p + 0, f + 0 }' "$log")
echo "  finished in $((SECONDS - started)) s"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
