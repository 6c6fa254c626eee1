#!/usr/bin/env bash
# Builds the app's wasm and its JavaScript glue into a folder of Trunk's build, and puts the lines
# that start it into that folder's index.html. Trunk's post-build hook runs it (scripts/post-build.sh):
# Trunk builds everything else (the stylesheet, the copied files, the log reader's worker), and
# skips the app itself (`data-trunk-skip` in index.html), because a release build needs a step
# between cargo and wasm-bindgen that Trunk has no place for.
#
#   scripts/build-app.sh release|dev <folder>
#
# release: the app is built with the `split` feature (src/lazy.rs) and `wasm-split-cli` cuts it at
#   its split points: `app_bg.wasm` holds what the first view needs, and each split point's module
#   (the detail panels, the scenario reader) is fetched when the app first calls it, once the page
#   is interactive. wasm-bindgen then builds the glue of the main module, and wasm-opt shrinks every
#   module with the flags of the worker's link in index.html. The files go into `app-<hash>/`, a
#   name of their own for each release, so that a browser never mixes modules of two builds.
# dev (`trunk serve`): one module, no wasm-opt, in `app-dev/`.
set -euo pipefail

mode=${1:-}
out=${2:-}
case "$mode" in release | dev) ;; *)
  echo "usage: build-app.sh release|dev <folder>" >&2
  exit 2
  ;;
esac
[ -d "$out" ] && [ -f "$out/index.html" ] || {
  echo "build-app.sh: '$out' is not a folder with an index.html" >&2
  exit 2
}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

bin=rebalance-playground
name=app
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
work="$target_dir/build-app/$mode"
rm -rf "$work"
mkdir -p "$work/pkg"
# The detail panels' stylesheet comes with their module (and counts in the release's hash).
cp static/panels.css "$work/pkg/"

if [ "$mode" = release ]; then
  # The profile and features of the worker's link in index.html, plus the split.
  cargo build --locked --target wasm32-unknown-unknown --profile wasm-release --bin "$bin" --features log-worker,split
  wasm="$target_dir/wasm32-unknown-unknown/wasm-release/$bin.wasm"
  # (`--out-name`: the chunks' loader imports the main module's glue as ./app.js.)
  wasm-split-cli --target web --out-name "$name" "$wasm" "$work/split" >/dev/null
  # (wasm-split-cli writes a name subsection the tools do not know; they say so, harmlessly.)
  quiet() { "$@" 2> >(grep -v 'unknown name subsection' >&2); }
  quiet wasm-bindgen --target web --no-typescript --keep-lld-exports --out-dir "$work/pkg" --out-name "$name" "$work/split/$name.wasm"
  for f in "$work/split"/*; do
    [ "$(basename "$f")" = "$name.wasm" ] || cp "$f" "$work/pkg/"
  done
  # (The first module with its names, for scripts/wasm-sizes.mjs: wasm-opt strips them.)
  mkdir -p "$work/named" && cp "$work/pkg/${name}_bg.wasm" "$work/named/"
  params=$(grep -o 'data-wasm-opt-params="[^"]*"' index.html | head -n 1 | sed 's/^data-wasm-opt-params="//; s/"$//')
  [ -n "$params" ] || { echo "build-app.sh: no data-wasm-opt-params in index.html" >&2; exit 1; }
  for f in "$work/pkg"/*.wasm; do
    # shellcheck disable=SC2086 # the flags are words
    quiet wasm-opt -Oz $params "$f" -o "$f"
  done
  hash=$(cat "$work/pkg"/* | sha256sum | cut -c1-16)
  dir="$name-$hash"
else
  cargo build --locked --target wasm32-unknown-unknown --bin "$bin" --features log-worker
  wasm-bindgen --target web --no-typescript --out-dir "$work/pkg" --out-name "$name" \
    "$target_dir/wasm32-unknown-unknown/debug/$bin.wasm"
  dir="$name-dev"
fi

rm -rf "${out:?}/$dir"
cp -r "$work/pkg" "$out/$dir"

# The lines that fetch and start the app. In <head>: preloads of the glue and of the first module, so
# that both download while the page is parsed and laid out. At the end of <body>: the module script
# that starts the app once the browser has produced the first view's first frame: only then does the
# glue compile the module (from the preload), because compiling it while the page is laid out takes
# the same two cores that lay it out and paint it. (The glue fetches and compiles the module in one
# stream, and when a host sends wasm with another MIME type it says so and compiles it the slower
# way.) The clicks and keys of a reader who does not wait are kept meanwhile (src/prerender.rs). And
# the detail panels' stylesheet, disabled (not fetched) until the app enables it as the panels come
# (src/lazy.rs, `PANELS_CSS_ID`).
wasm_url="./$dir/${name}_bg.wasm"
head="<link rel=\"modulepreload\" href=\"./$dir/$name.js\"><link rel=\"preload\" href=\"$wasm_url\" as=\"fetch\" type=\"application/wasm\" crossorigin>"
start="<link id=\"panels-css\" rel=\"stylesheet\" href=\"./$dir/panels.css\" disabled><script type=\"module\">import init from './$dir/$name.js';requestAnimationFrame(function(){setTimeout(function(){init({module_or_path:'$wasm_url'})},0)});</script>"
node -e '
const fs = require("fs");
const [file, head, start] = process.argv.slice(1);
let html = fs.readFileSync(file, "utf8");
for (const [marker, what] of [["</head>", head], ["</body>", start]]) {
  if (html.split(marker).length !== 2) throw new Error(`${file}: expected ${marker} once`);
  html = html.replace(marker, `${what}\n${marker}`);
}
fs.writeFileSync(file, html);
' "$out/index.html" "$head" "$start"
echo "build-app: $mode build in $dir/ ($(cd "$out/$dir" && ls | tr '\n' ' '))"
