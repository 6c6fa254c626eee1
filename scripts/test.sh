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
# The release build's app: split at its split points (src/lazy.rs).
cargo clippy --target wasm32-unknown-unknown -p rebalance-playground --features log-worker,split --locked \
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
# What a first visit fetches before the page is interactive (the app's first module, its glue, the
# chunks' loader; scripts/build-app.sh), and apart from it what comes later: the app's split parts
# and the detail panels' stylesheet, fetched once it is interactive or when first used, and the log reader's worker, fetched when a
# log is first replayed.
first=0
later=0
for f in dist/*.wasm dist/*.js dist/*.css dist/app-*/*; do
  [ -e "$f" ] || continue
  case "$(basename "$f")" in sw.js) continue ;; esac
  size=$(gzip -9 -c "$f" | wc -c)
  case "$f" in
    */split_*.wasm | */chunk_*.wasm | */panels.css | dist/log[-_]worker*) later=$((later + size)); when="later" ;;
    *) first=$((first + size)); when="first load" ;;
  esac
  printf '  %-56s %8d bytes gzipped (%s)\n' "${f#dist/}" "$size" "$when"
done
printf '  %-56s %8d bytes gzipped (%d KiB)\n' "first load (wasm + js + css)" "$first" $((first / 1024))
printf '  %-56s %8d bytes gzipped\n' "later parts" "$later"

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
