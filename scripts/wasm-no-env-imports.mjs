// Reads `cargo ... --message-format=json` on stdin and checks every wasm executable it built: none may
// import anything from the module "env". Such an import is a symbol the linker could not resolve (a C
// function, an OS service), which a browser cannot provide; the engine must need nothing from its host.
//
//   cargo test -p rebalance-engine --target wasm32-unknown-unknown --no-run --message-format=json \
//     | node scripts/wasm-no-env-imports.mjs
//
// Prints each file's import modules; exits 1 if one imports from "env", or if no wasm was built.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const files = new Set();
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (!line.startsWith("{")) continue;
  const msg = JSON.parse(line);
  if (msg.reason === "compiler-artifact" && msg.executable?.endsWith(".wasm")) files.add(msg.executable);
}
if (files.size === 0) {
  console.error("no wasm executables in cargo's output");
  process.exit(1);
}

let bad = 0;
for (const file of [...files].sort()) {
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(file)));
  const modules = [...new Set(imports.map((i) => i.module))].sort();
  const fromEnv = imports.filter((i) => i.module === "env").map((i) => i.name);
  console.log(`  ${basename(file).padEnd(48)} imports from: ${modules.join(", ") || "nothing"}`);
  if (fromEnv.length > 0) {
    bad += 1;
    console.error(`  ${basename(file)} imports from "env": ${fromEnv.join(", ")}`);
  }
}
if (bad > 0) process.exit(1);
