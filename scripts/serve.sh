#!/usr/bin/env bash
# Installs what is missing, then serves the playground on http://127.0.0.1:8080 (rebuilds on change).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
export PATH="$HOME/.cargo/bin:$PATH"
cd "$root"
exec trunk serve --offline "$@"
