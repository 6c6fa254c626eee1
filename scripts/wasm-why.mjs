// Why is a function in the app's first module? (A measuring tool, like wasm-sizes.mjs.)
//
//   node scripts/wasm-why.mjs target/wasm32-unknown-unknown/wasm-release/rebalance-playground.wasm REGEX [CUT]
//
// Reads the app as cargo linked it for the release build (with its relocations: the `split` feature
// keeps them, see build.rs), builds the graph of what refers to what (a function's calls and the
// functions and data its code names; the functions and data a piece of data names, such as a
// vtable) and prints one shortest chain from the module's exports (but the split points' own, whose
// code goes to their modules) to the first function or data symbol whose name matches REGEX: that
// chain is why wasm-split-cli keeps it in the first module. With CUT, it also says how much code
// and data would leave the first module if nothing reached the functions matching CUT (what a new
// split point or a change of design there would save).
import { readFileSync } from 'node:fs';

const [file, targetArg, cutArg] = process.argv.slice(2);
if (!file || !targetArg) {
  console.error('usage: node scripts/wasm-why.mjs <app.wasm linked with relocations> <regex> [cut regex]');
  process.exit(2);
}
const buf = readFileSync(file);
if (buf.readUInt32LE(0) !== 0x6d736100) throw new Error(`${file}: not a wasm module`);

const leb = (p) => {
  let r = 0;
  let s = 0;
  for (;;) {
    const b = buf[p++];
    r += (b & 0x7f) * 2 ** s;
    s += 7;
    if (b < 0x80) return [r, p];
  }
};
const sleb = (p) => {
  let r = 0n;
  let s = 0n;
  for (;;) {
    const b = buf[p++];
    r |= BigInt(b & 0x7f) << s;
    s += 7n;
    if (b < 0x80) return [b & 0x40 ? r - (1n << s) : r, p];
  }
};
const str = (p) => {
  const [n, q] = leb(p);
  return [buf.toString('utf8', q, q + n), q + n];
};

// Sections.
const sections = [];
for (let p = 8; p < buf.length; ) {
  const id = buf[p++];
  const [size, q] = leb(p);
  sections.push({ id, start: q, size, index: sections.length });
  p = q + size;
}
let importedFuncs = 0;
const exports = [];
const names = new Map();
let code;
let data;
let linking;
const relocs = [];
for (const s of sections) {
  let p = s.start;
  if (s.id === 2) {
    let n;
    [n, p] = leb(p);
    for (let i = 0; i < n; i++) {
      [, p] = str(p);
      [, p] = str(p);
      const kind = buf[p++];
      if (kind === 0) [, p] = leb(p), importedFuncs++;
      else if (kind === 1) {
        p++;
        let flags;
        [flags, p] = leb(p);
        [, p] = leb(p);
        if (flags & 1) [, p] = leb(p);
      } else if (kind === 2) {
        let flags;
        [flags, p] = leb(p);
        [, p] = leb(p);
        if (flags & 1) [, p] = leb(p);
      } else if (kind === 3) p += 2;
      else throw new Error(`import kind ${kind}`);
    }
  } else if (s.id === 7) {
    let n;
    [n, p] = leb(p);
    for (let i = 0; i < n; i++) {
      let name;
      let idx;
      [name, p] = str(p);
      const kind = buf[p++];
      [idx, p] = leb(p);
      if (kind === 0) exports.push([name, idx]);
    }
  } else if (s.id === 10) code = s;
  else if (s.id === 11) data = s;
  else if (s.id === 0) {
    let name;
    [name, p] = str(p);
    const end = s.start + s.size;
    if (name === 'linking') linking = [p, end];
    else if (name.startsWith('reloc.')) relocs.push([p, end]);
    else if (name === 'name') {
      while (p < end) {
        const sub = buf[p++];
        let size;
        [size, p] = leb(p);
        const subEnd = p + size;
        if (sub === 1) {
          let n;
          [n, p] = leb(p);
          for (let i = 0; i < n; i++) {
            let idx;
            let nm;
            [idx, p] = leb(p);
            [nm, p] = str(p);
            names.set(idx, nm);
          }
        }
        p = subEnd;
      }
    }
  }
}
if (!linking || !relocs.length) {
  console.error(`${file}: no relocations (build the app with the \`split\` feature, as scripts/build-app.sh does)`);
  process.exit(1);
}

// Function bodies and data segments, by offset in their section.
const bodies = [];
{
  let [n, p] = leb(code.start);
  for (let k = 0; k < n; k++) {
    const [size, q] = leb(p);
    bodies.push({ from: p - code.start, to: q + size - code.start, func: importedFuncs + k });
    p = q + size;
  }
}
const segments = [];
{
  let [n, p] = leb(data.start);
  for (let k = 0; k < n; k++) {
    let flags;
    [flags, p] = leb(p);
    if (flags === 2) [, p] = leb(p);
    if (flags !== 1) {
      while (buf[p] !== 0x0b) p++;
      p++;
    }
    const [size, q] = leb(p);
    segments.push({ from: q - data.start, to: q + size - data.start, index: k });
    p = q + size;
  }
}

// The symbol table.
const symbols = [];
{
  let [p, end] = linking;
  [, p] = leb(p);
  while (p < end) {
    const type = buf[p++];
    let size;
    [size, p] = leb(p);
    const subEnd = p + size;
    if (type === 8) {
      let n;
      [n, p] = leb(p);
      for (let i = 0; i < n; i++) {
        const kind = buf[p++];
        let flags;
        [flags, p] = leb(p);
        if (kind === 1) {
          let name;
          [name, p] = str(p);
          let at = null;
          if (!(flags & 0x10)) {
            let seg;
            let off;
            let sz;
            [seg, p] = leb(p);
            [off, p] = leb(p);
            [sz, p] = leb(p);
            at = { seg, off, size: sz };
          }
          symbols.push({ kind: 'data', name, at });
        } else if (kind === 3) {
          [, p] = leb(p);
          symbols.push({ kind: 'section' });
        } else {
          let idx;
          [idx, p] = leb(p);
          let name = null;
          if (!(flags & 0x10) || flags & 0x40) [name, p] = str(p);
          symbols.push({ kind: kind === 0 ? 'func' : 'other', index: idx, name });
        }
      }
    }
    p = subEnd;
  }
}

const find = (list, off) => {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].to <= off) lo = mid + 1;
    else if (list[mid].from > off) hi = mid - 1;
    else return list[mid];
  }
  return null;
};
const dataBySegment = new Map();
symbols.forEach((s, i) => {
  if (s.kind === 'data' && s.at) {
    if (!dataBySegment.has(s.at.seg)) dataBySegment.set(s.at.seg, []);
    dataBySegment.get(s.at.seg).push({ from: s.at.off, to: s.at.off + Math.max(s.at.size, 1), symbol: i });
  }
});
for (const list of dataBySegment.values()) list.sort((a, b) => a.from - b.from);

// The graph: `f<index>` for a function, `d<symbol>` for a data symbol.
const graph = new Map();
const edge = (from, to) => {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
};
const WITH_ADDEND = new Set([3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25]);
for (const [start, end] of relocs) {
  let [section, p] = leb(start);
  let n;
  [n, p] = leb(p);
  for (let i = 0; i < n; i++) {
    const type = buf[p++];
    let offset;
    let index;
    [offset, p] = leb(p);
    [index, p] = leb(p);
    if (WITH_ADDEND.has(type)) [, p] = sleb(p);
    if (type === 6 || type === 9 || type === 20) continue; // a type, a section offset, a table number
    let from = null;
    if (section === code.index) {
      const body = find(bodies, offset);
      if (body) from = `f${body.func}`;
    } else if (section === data.index) {
      const seg = find(segments, offset);
      const sym = seg && find(dataBySegment.get(seg.index) ?? [], offset - seg.from);
      if (sym) from = `d${sym.symbol}`;
    }
    const s = symbols[index];
    if (!from || !s) continue;
    if (s.kind === 'func') edge(from, `f${s.index}`);
    else if (s.kind === 'data') edge(from, `d${index}`);
  }
}

const nameOf = (node) =>
  node[0] === 'f' ? `fn ${names.get(Number(node.slice(1))) ?? node}` : `data ${symbols[Number(node.slice(1))].name}`;
const roots = exports.filter(([name]) => !name.startsWith('__wasm_split_00')).map(([, idx]) => `f${idx}`);
const reach = (cut) => {
  const seen = new Map(roots.map((r) => [r, null]));
  const queue = [...roots];
  while (queue.length) {
    const x = queue.shift();
    for (const y of graph.get(x) ?? []) {
      if (seen.has(y) || (cut && y[0] === 'f' && cut.test(names.get(Number(y.slice(1))) ?? ''))) continue;
      seen.set(y, x);
      queue.push(y);
    }
  }
  return seen;
};

const target = new RegExp(targetArg);
const all = reach(null);
const hit = [...all.keys()].find((node) => target.test(nameOf(node).replace(/^(fn|data) /, '')));
if (!hit) console.log(`nothing matching /${targetArg}/ is reached from the first module's exports`);
else {
  const chain = [];
  for (let x = hit; x !== null; x = all.get(x)) chain.push(nameOf(x));
  console.log(`from an export of the first module to /${targetArg}/, each line referring to the next:`);
  console.log(chain.reverse().map((line) => `  ${line}`).join('\n'));
}
if (cutArg) {
  const size = (seen) => {
    let codeBytes = 0;
    let dataBytes = 0;
    const bodySize = new Map(bodies.map((b) => [`f${b.func}`, b.to - b.from]));
    for (const node of seen.keys()) {
      if (node[0] === 'f') codeBytes += bodySize.get(node) ?? 0;
      else dataBytes += symbols[Number(node.slice(1))].at?.size ?? 0;
    }
    return [codeBytes, dataBytes];
  };
  const [c0, d0] = size(all);
  const [c1, d1] = size(reach(new RegExp(cutArg)));
  console.log(`without what only /${cutArg}/ reaches: code ${c0} -> ${c1} B (-${c0 - c1}), data ${d0} -> ${d1} B (-${d0 - d1})`);
}
