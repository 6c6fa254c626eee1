// Where a wasm's code bytes go, by crate and by the largest functions, from its name section (a
// measuring tool, like `twiggy top`, with nothing to install):
//
//   node scripts/wasm-sizes.mjs target/build-app/release/named/app_bg.wasm [rows] [regex…]
//
// Each regex adds a line: the code of the functions whose names match it (say `engine::console`).
//
// Use a file before wasm-opt strips the names: the release build's first module as wasm-bindgen
// wrote it (`target/build-app/release/named/`; the parts, as wasm-split-cli wrote them, are in
// `target/build-app/release/split/`);
// wasm-opt shrinks every part, so the shares are the figures to read. A function is attributed to
// the crate of its first path segment; `<T as Trait>::f` to T's crate, generic code to the crate
// that defines it (so `alloc` holds every B-tree instance, whichever crate asked for it).
import { readFileSync } from 'node:fs';

const [file, rowsArg, ...patterns] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs <file.wasm> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 25);
const buf = readFileSync(file);
if (buf.readUInt32LE(0) !== 0x6d736100) throw new Error(`${file}: not a wasm module`);

let pos = 8;
const leb = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return result;
  }
};
const name = () => {
  const n = leb();
  const s = buf.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

let imports = 0;
const bodies = [];
const names = new Map();
const sections = [];
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  let label = `section ${id}`;
  if (id === 0) {
    const custom = name();
    label = `custom "${custom}"`;
    if (custom === 'name') {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = leb();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const index = leb();
            names.set(index, name());
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      name();
      name();
      const kind = buf[pos++];
      if (kind === 0) {
        leb();
        imports++;
      } else if (kind === 1) {
        pos++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) {
        pos += 2;
      } else {
        leb();
        leb();
      }
    }
  } else if (id === 10) {
    label = 'code';
    const count = leb();
    for (let i = 0; i < count; i++) {
      const n = leb();
      bodies.push({ index: imports + i, size: n });
      pos += n;
    }
  } else if (id === 11) {
    label = 'data';
  }
  sections.push([label, size]);
  pos = end;
}

const crateOf = (fn) => {
  const m = fn.match(/^<*&?(?:mut )?(?:dyn )?([A-Za-z_][A-Za-z0-9_]*)/);
  return m ? m[1] : fn;
};
const byCrate = new Map();
const byFn = [];
let code = 0;
for (const { index, size } of bodies) {
  const fn = names.get(index) ?? `func[${index}]`;
  code += size;
  byFn.push([fn, size]);
  const crate = crateOf(fn);
  byCrate.set(crate, (byCrate.get(crate) ?? 0) + size);
}
const pct = (n) => `${((100 * n) / code).toFixed(1)}%`.padStart(6);
console.log(`${file}: ${buf.length} B; sections:`);
for (const [label, size] of sections.sort((a, b) => b[1] - a[1])) console.log(`  ${String(size).padStart(9)}  ${label}`);
console.log(`\ncode by crate (${bodies.length} functions, ${code} B):`);
for (const [crate, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`  ${String(size).padStart(9)} ${pct(size)}  ${crate}`);
}
const btree = byFn.filter(([f]) => /collections::btree/.test(f));
console.log(`\nB-tree code: ${btree.reduce((a, [, s]) => a + s, 0)} B in ${btree.length} functions`);
const fmt = byFn.filter(([f]) => /^(core::fmt|<[^>]* as core::fmt::(Display|Debug)>)/.test(f));
console.log(`formatting (core::fmt and Display/Debug impls): ${fmt.reduce((a, [, s]) => a + s, 0)} B in ${fmt.length} functions`);
for (const p of patterns) {
  const hit = byFn.filter(([f]) => new RegExp(p).test(f));
  console.log(`/${p}/: ${hit.reduce((a, [, s]) => a + s, 0)} B in ${hit.length} functions`);
}
console.log(`\nlargest functions:`);
for (const [fn, size] of byFn.sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`  ${String(size).padStart(9)} ${pct(size)}  ${fn.length > 150 ? fn.slice(0, 150) + '…' : fn}`);
}
