// Performance figures for the playground (a benchmark to run and read, not a test):
//
//   node tests/e2e/bench.mjs            (after `trunk build --release --offline`)
//
// 1. the release bundle (wasm + js + css) fetched before the page is interactive, gzip -9, and the
//    parts fetched later;
// 1b. the engine alone, with no UI (a tiny crate this script writes under target/bench-engine-only);
// 2. navigation → first rendered group view and first contentful paint, median of 10 loads, next to
//    an empty Yew app built the same way (a tiny crate this script writes under
//    target/bench-empty-app and builds with Trunk); and the first click on "Add consumer" made at or
//    after that paint that works (its consumer is on the stage); and the first paint of the same
//    page without its scripts (the least the first paint can take); in an English and in a Chinese
//    browser (zh-CN), each of which gets the first view in its language;
// 3. 30 consumers at ~4× speed: the interval between animation frames over 20 s.
//
// Environment: CARGO_TARGET_DIR is honoured for the builds; LOADS, FRAMES_MS change the run;
// OTHER_DIST=<a dist/ folder> loads another build of the playground in turn with these (an A/B);
// NETWORK_KBPS (and NETWORK_RTT_MS, default 100) load every page over an emulated slow network, the
// files gzipped as a static host sends them (the frames are measured without it);
// SKIP_ENGINE_ONLY=1 skips building the engine alone.
import { readdir, readFile, mkdir, writeFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { ROOT, DIST, launchBrowser, serveDist, tookOver, median } from './harness.mjs';

const LOADS = Number(process.env.LOADS ?? 10);
const FRAMES_MS = Number(process.env.FRAMES_MS ?? 20_000);
/** The Cargo profile of the playground's wasm (index.html's `data-cargo-profile-release`). */
const WASM_PROFILE = 'wasm-release';


/**
 * What a first visit fetches before the page is interactive, gzip -9: the app's first module, its
 * JavaScript and the chunks' loader it imports (`app-<hash>/`, see scripts/build-app.sh), and any
 * other wasm, JavaScript or stylesheet at the top (index.html, which holds the prerendered first
 * view and the inlined stylesheet, is counted apart). Listed apart, not in the total: the parts the
 * app fetches once it is interactive or when first used (`app-<hash>/split_*.wasm`, the
 * `chunk_*.wasm` they share and the detail panels' `panels.css`), the service worker, fetched after the app has taken over, and the log
 * reader's worker (`log_worker*`, `log-worker-loader.js`), fetched when a log is first replayed.
 */
async function bundleSize(dir) {
  let total = 0;
  let onDemand = 0;
  let later = 0;
  const parts = [];
  const gz = async (f) => gzipSync(await readFile(join(dir, f)), { level: 9 }).length;
  const files = [];
  for (const f of await readdir(dir, { withFileTypes: true })) {
    if (f.isDirectory() && /^app-/.test(f.name)) {
      for (const g of await readdir(join(dir, f.name))) files.push(`${f.name}/${g}`);
    } else if (f.isFile()) {
      files.push(f.name);
    }
  }
  for (const f of files.sort()) {
    if (!/\.(wasm|js|css)$/.test(f) || f === 'sw.js') continue;
    const size = await gz(f);
    if (/^log[-_]worker/.test(f)) {
      onDemand += size;
      parts.push(`${f}: ${size} B (on demand; not in the total)`);
      continue;
    }
    if (/\/(split|chunk)_[^/]*\.wasm$|\/panels\.css$/.test(f)) {
      later += size;
      parts.push(`${f}: ${size} B (once interactive or when first used; not in the total)`);
      continue;
    }
    total += size;
    parts.push(`${f}: ${size} B`);
  }
  if (later) parts.push(`the app's later parts: ${later} B`);
  if (onDemand) parts.push(`the log reader's worker, on demand: ${onDemand} B`);
  const html = await gz('index.html');
  parts.push(`index.html: ${html} B (not in the total)`);
  try {
    parts.push(`sw.js: ${await gz('sw.js')} B (after load; not in the total)`);
  } catch {
    // The empty app has no service worker.
  }
  return { total, parts, html };
}

/**
 * The playground's `[profile.release]` and `[profile.wasm-release]` sections (its wasm builds with
 * the second), so that the comparison crates build the same way.
 */
async function releaseProfile() {
  const manifest = await readFile(join(ROOT, 'Cargo.toml'), 'utf8');
  return ['release', WASM_PROFILE]
    .map((name) => {
      const section = manifest.match(new RegExp(`^\\[profile\\.${name}\\]\\n(?:.+\\n?)*`, 'm')); // up to its first blank line
      if (!section) throw new Error(`Cargo.toml has no [profile.${name}] section`);
      return section[0];
    })
    .join('\n');
}

/** The version of `name` in the playground's Cargo.lock. */
function lockedVersion(lock, name) {
  return (lock.match(new RegExp(`name = "${name}"\\nversion = "([^"]+)"`)) ?? [])[1];
}

/**
 * Writes a comparison crate under `dir`: its manifest (its own workspace, the playground's release
 * profile), the playground's Cargo.lock (so that the same versions are used; cargo trims what is not
 * needed) and its one source file.
 */
async function writeCrate(dir, { name, sections, file, source }) {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'Cargo.toml'), `[package]
name = "${name}"
version = "0.0.0"
edition = "2021"
publish = false

# Its own workspace: it lives under the playground's target/ but is not part of it.
[workspace]

${sections}
${await releaseProfile()}`);
  await writeFile(join(dir, 'Cargo.lock'), await readFile(join(ROOT, 'Cargo.lock'), 'utf8'));
  await writeFile(join(dir, 'src', file), source);
}

// ---------------------------------------------------------------------------- the empty app
const EMPTY = join(ROOT, 'target', 'bench-empty-app');

async function buildEmptyApp() {
  const lock = await readFile(join(ROOT, 'Cargo.lock'), 'utf8');
  await writeCrate(EMPTY, {
    name: 'empty-app',
    sections: `[dependencies]
yew = { version = "=${lockedVersion(lock, 'yew') ?? '0.23'}", features = ["csr"] }
wasm-bindgen = "=${lockedVersion(lock, 'wasm-bindgen')}"
`,
    file: 'main.rs',
    source: `use yew::prelude::*;

#[component]
fn App() -> Html {
    html! { <main><h1>{ "Empty" }</h1><p data-testid="group-state">{ "Empty" }</p></main> }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
`,
  });
  const html = await readFile(join(ROOT, 'index.html'), 'utf8');
  // The playground's app is built by its post-build hook (scripts/build-app.sh), with the profile
  // and wasm-opt flags of the log reader's link; Trunk builds the empty app the same way.
  const worker = html.match(/<link data-trunk rel="rust"[^>]*data-type="worker"[^>]*>\n?/)[0];
  const params = worker.match(/data-wasm-opt-params="([^"]*)"/)[1];
  const app = `<link data-trunk rel="rust" data-bin="empty-app" data-cargo-profile-release="${WASM_PROFILE}" data-wasm-opt="z" data-wasm-opt-params="${params}" />`;
  const index = html
    .replace(/<link data-trunk rel="(css|inline)"[^>]*>\n?/, '')
    .replace(/<link data-trunk rel="copy-(file|dir)"[^>]*>\n?/g, '')
    // (Without the playground's on-demand worker.)
    .replace(worker, '')
    .replace(/<link data-trunk rel="rust" data-bin="rebalance-playground"[^>]*>/, app);
  await writeFile(join(EMPTY, 'index.html'), index);
  // Without the playground's hooks (its prerendered first view and service worker).
  const trunkToml = (await readFile(join(ROOT, 'Trunk.toml'), 'utf8')).split(/^\[\[hooks\]\]/m)[0];
  await writeFile(join(EMPTY, 'Trunk.toml'), trunkToml);
  execFileSync('trunk', ['build', '--release', '--offline'], {
    cwd: EMPTY,
    stdio: 'inherit',
    env: { ...process.env, CARGO_NET_OFFLINE: 'true' },
  });
  return join(EMPTY, 'dist');
}

// ---------------------------------------------------------------------------- the engine alone
// The engine as the playground uses it (parse a scenario, run it, clone it, write it back, the log's
// lines), with no UI, built with the same profile and wasm-opt flags: the part of the bundle that
// no choice of UI can remove.
const ENGINE_ONLY = join(ROOT, 'target', 'bench-engine-only');

async function engineOnlySize() {
  const lock = await readFile(join(ROOT, 'Cargo.lock'), 'utf8');
  await writeCrate(ENGINE_ONLY, {
    name: 'engine-only',
    sections: `[lib]
crate-type = ["cdylib"]

[dependencies]
rebalance-engine = { path = "${join(ROOT, 'crates', 'engine')}" }
wasm-bindgen = "=${lockedVersion(lock, 'wasm-bindgen')}"
`,
    file: 'lib.rs',
    source: `use rebalance_engine::{Scenario, SimTime, Simulation};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub fn run(json: &str, until: u64) -> String {
    let scenario = match Scenario::from_json(json) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    let mut sim = match Simulation::new(&scenario) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    sim.run_until(SimTime(until));
    let copy = sim.clone();
    let mut out = rebalance_engine::share::scenario_to_json(&scenario);
    out.push_str(&(copy.consumers().len() + sim.brokers().len() + sim.group().members.len()).to_string());
    for e in sim.log() {
        out.push_str(&e.line());
    }
    out
}
`,
  });
  const target = process.env.CARGO_TARGET_DIR ? join(process.env.CARGO_TARGET_DIR, 'bench-engine-only') : join(ENGINE_ONLY, 'target');
  execFileSync('cargo', ['build', '--profile', WASM_PROFILE, '--target', 'wasm32-unknown-unknown', '--quiet'], {
    cwd: ENGINE_ONLY,
    stdio: 'inherit',
    env: { ...process.env, CARGO_TARGET_DIR: target, CARGO_NET_OFFLINE: 'true' },
  });
  const out = join(ENGINE_ONLY, 'out');
  execFileSync('wasm-bindgen', ['--target', 'web', '--out-dir', out, join(target, 'wasm32-unknown-unknown', WASM_PROFILE, 'engine_only.wasm')]);
  // The flags index.html gives Trunk's wasm-opt.
  const html = await readFile(join(ROOT, 'index.html'), 'utf8');
  const params = (html.match(/data-wasm-opt-params="([^"]*)"/) ?? [])[1] ?? '';
  execFileSync('wasm-opt', ['-Oz', ...params.split(/\s+/).filter(Boolean), join(out, 'engine_only_bg.wasm'), '-o', join(out, 'engine.wasm')]);
  return gzipSync(await readFile(join(out, 'engine.wasm')), { level: 9 }).length;
}

/**
 * A slow network for the loads (NETWORK_KBPS kilobits a second each way, NETWORK_RTT_MS of round
 * trip; Chromium's network emulation), or none.
 */
const NETWORK = process.env.NETWORK_KBPS
  ? { kbps: Number(process.env.NETWORK_KBPS), rtt: Number(process.env.NETWORK_RTT_MS ?? 100) }
  : null;

/**
 * Serves `dir` on loopback. On an emulated network it sends text and wasm gzipped, as a static host
 * does (what crosses the network is then what the bundle figures count).
 */
function serveDir(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const file = join(dir, path.endsWith('/') ? path + 'index.html' : path);
    try {
      const body = await readFile(file);
      const ext = file.slice(file.lastIndexOf('.'));
      const headers = { 'content-type': types[ext] ?? 'application/octet-stream' };
      if (NETWORK && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
        res.end(gzipSync(body, { level: 9 }));
        return;
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((c) => server.close(c)) }),
    ),
  );
}

/**
 * One load of `url` (in a browser whose language is `locale`, if given), in milliseconds from
 * navigation start: until `[data-testid=group-state]` is in
 * the document, and the first contentful paint. With `click`, also the time of the first click on
 * "Add consumer" made at or after the first contentful paint that worked (kept by the first view
 * for the app to replay, or acted on by the app; see the init script below), when the app took
 * over, and when the click's consumer came on the stage (the group view's answer to the click; its
 * card comes with the detail panels).
 */
async function loadFigures(browser, url, { click = false, locale } = {}) {
  const context = await browser.newContext(locale ? { locale } : {});
  const page = await context.newPage();
  if (NETWORK) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const bytes = (NETWORK.kbps * 1000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: NETWORK.rtt,
      downloadThroughput: bytes,
      uploadThroughput: bytes,
    });
  }
  await page.addInitScript((click) => {
    const done = () => {
      if (document.querySelector('[data-testid=group-state]')) {
        window.__groupViewAt = performance.now();
        return true;
      }
      return false;
    };
    new MutationObserver((_, obs) => done() && obs.disconnect()).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcpAt = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    if (click) {
      // A reader clicks "Add consumer" as soon as it is on the screen: at the first contentful
      // paint. The page learns of that paint only later (its timing entry comes with the
      // compositor's report that the frame was presented: 25 to 80 ms after it on this machine,
      // often after the app has taken over), so waiting for the entry to click would time the
      // report, not the page. Instead the page clicks every 4 ms from the moment the button is in
      // the document, and the figure is the first click made at or after the paint that worked:
      // the first view kept it for the app to replay (src/prerender.rs), or the app acted on it.
      // (A timer task, where a reader's click is an input event, which the browser handles before
      // other waiting work: if anything, the figure is late.) At most EARLY clicks before the paint
      // is known, so that the first view's queue of kept input (32) is not filled by clicks that
      // do not count.
      const EARLY = 20;
      addEventListener('playground-took-over', () => (window.__tookAt = performance.now()));
      const clicks = [];
      const tick = () => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
        const worked = fcp === undefined ? undefined : clicks.find((c) => c.at >= fcp && c.works);
        if (worked && document.querySelector('.stage-consumer')) {
          window.__clickWorkedAt = worked.at;
          window.__consumerAt = performance.now();
          return;
        }
        const button = document.getElementById('add-consumer-submit');
        if (button && !worked && (fcp !== undefined || clicks.length < EARLY)) {
          const at = performance.now();
          const acting = window.__tookAt !== undefined;
          const queued = window.__firstViewInput?.length ?? 0;
          button.click();
          clicks.push({ at, works: acting || (window.__firstViewInput?.length ?? 0) > queued });
        }
        setTimeout(tick, 4);
      };
      tick();
    }
  }, click);
  // (Not waiting for `load`: the figures are the page's own, and a busy machine may delay it.)
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    (click) => window.__groupViewAt !== undefined && window.__fcpAt !== undefined && (!click || window.__clickWorkedAt !== undefined),
    click,
    { timeout: 30_000 },
  );
  const t = await page.evaluate(() => ({ view: window.__groupViewAt, fcp: window.__fcpAt, click: window.__clickWorkedAt, took: window.__tookAt, consumer: window.__consumerAt, lang: document.documentElement.lang }));
  if (locale && !t.lang.startsWith(locale.slice(0, 2))) throw new Error(`${url} in a ${locale} browser showed a page in "${t.lang}"`);
  await context.close();
  return t;
}

// ---------------------------------------------------------------------------- the first view alone
/**
 * The playground's page without its scripts: the prerendered first view and its inlined stylesheet,
 * nothing else (`index.html`), and the same for the Chinese first view (`zh.html`: the template a
 * Chinese browser's inline script shows, in the page's place). Their first paint is what the browser
 * needs to lay out and paint that view, the least the playground's own first paint can take.
 */
async function firstViewOnly() {
  const dir = join(ROOT, 'target', 'bench-first-view');
  await mkdir(dir, { recursive: true });
  const html = (await readFile(join(DIST, 'index.html'), 'utf8'))
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
  await writeFile(join(dir, 'index.html'), html);
  const start = html.indexOf('<div id="prerender">');
  const template = html.match(/<template id="prerender-zh">([\s\S]*?)<\/template>/);
  if (start < 0 || !template) throw new Error(`${DIST}/index.html has no first view in both languages`);
  const zh = html.slice(0, start) + `<div id="prerender" class="is-zh">${template[1]}</div>` + html.slice(template.index + template[0].length);
  await writeFile(join(dir, 'zh.html'), zh.replace('<html lang="en">', '<html lang="zh-CN" class="first-view-zh">'));
  return dir;
}

/** The browsers' languages the first view is measured in, and the page each gets without scripts. */
const LANGS = [
  { key: 'en', name: 'English', locale: 'en-US', alone: 'index.html' },
  { key: 'zh', name: 'Chinese (a zh-CN browser)', locale: 'zh-CN', alone: 'zh.html' },
];

/**
 * Alternates loads of the pages, so that all see the same background load on the machine: the
 * empty app (`urlB`, series `empty`); in each of `LANGS`, the playground (`urlA`, series `en` and
 * `en clicks`, ...) and its first view alone (`urlAlone`, series `en alone`, ...); and another
 * build (`urlOther`, if given: `other en`, `other en clicks`, `other zh`).
 */
async function loadTimes(browser, urlA, urlB, urlOther, urlAlone) {
  const runs = { empty: () => loadFigures(browser, urlB) };
  for (const { key, locale, alone } of LANGS) {
    runs[key] = () => loadFigures(browser, urlA, { locale });
    runs[`${key} clicks`] = () => loadFigures(browser, urlA, { locale, click: true });
    runs[`${key} alone`] = () => loadFigures(browser, urlAlone + alone, { locale });
    if (urlOther) runs[`other ${key}`] = () => loadFigures(browser, urlOther, { locale });
  }
  if (urlOther) runs['other en clicks'] = () => loadFigures(browser, urlOther, { click: true });
  // Warm the server's disk cache.
  for (const k of ['en', 'empty', 'en alone', 'other en']) await runs[k]?.();
  const loads = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let i = 0; i < LOADS; i++) for (const [k, run] of Object.entries(runs)) loads[k].push(await run());
  return loads;
}

async function frames(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await tookOver(page);
  const add = page.getByRole('button', { name: 'Add consumer' });
  for (let i = 0; i < 30; i++) await add.click();
  // 10^(6/10) = 3.98×, the slider's step nearest 4×.
  await page.getByRole('slider', { name: 'Speed' }).fill('6');
  const speed = await page.locator('.toolbar-speed-value').textContent();
  // Long tasks (> 50 ms of script on the main thread) tell the app's own stalls apart from the
  // machine's (a busy machine delays frames without any long task).
  const { stamps: result, longTasks } = await page.evaluate(
    (ms) =>
      new Promise((ok) => {
        const stamps = [];
        const longTasks = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(Math.round(e.duration))))
          .observe({ type: 'longtask' });
        const start = performance.now();
        const tick = (t) => {
          stamps.push(t);
          if (t - start < ms) requestAnimationFrame(tick);
          else ok({ stamps, longTasks });
        };
        requestAnimationFrame(tick);
      }),
    FRAMES_MS,
  );
  const state = await page.getByTestId('group-state').textContent();
  const generation = await page.getByTestId('generation').textContent();
  const virtual = await page.getByTestId('clock').getAttribute('data-ms');
  await context.close();
  const gaps = result.slice(1).map((t, i) => t - result[i]);
  return { speed, gaps, state, generation, virtual, errors, longTasks };
}

const browser = await launchBrowser();
try {
  const ours = await bundleSize(DIST);
  console.log(`bundle (gzip -9): ${ours.total} B = ${(ours.total / 1024).toFixed(1)} KiB (target 400 KB); with index.html ${ours.total + ours.html} B`);
  for (const p of ours.parts) console.log(`  ${p}`);

  const emptyDist = await buildEmptyApp();
  const empty = await bundleSize(emptyDist);
  console.log(`empty Yew app bundle (gzip -9): ${empty.total} B`);
  if (!process.env.SKIP_ENGINE_ONLY) {
    const engine = await engineOnlySize();
    console.log(`the engine alone, no UI (gzip -9): ${engine} B; with the empty Yew app: ${engine + empty.total} B`);
  }

  // (On an emulated network the playground is served gzipped too.)
  const a = NETWORK ? await serveDir(DIST) : await serveDist();
  const b = await serveDir(emptyDist);
  // OTHER_DIST: another build of the playground (say, the last commit's), loaded in turn with the
  // others, so that a change is measured against the same machine at the same time.
  const c = process.env.OTHER_DIST ? await serveDir(process.env.OTHER_DIST) : null;
  const d = await serveDir(await firstViewOnly());
  const loads = await loadTimes(browser, a.url, b.url, c?.url, d.url);
  await d.close();
  const ms = (xs) => xs.map((t) => t.toFixed(0)).join(' ');
  const of = (k, field) => loads[k].map((t) => t[field]);
  const mp = median(of('en', 'view'));
  const mb = median(of('empty', 'view'));
  console.log(`first group view in the document, median of ${LOADS}: playground ${mp.toFixed(1)} ms, empty Yew app ${mb.toFixed(1)} ms, ratio ${(mp / mb).toFixed(2)}× (target ≤ 1.5×)`);
  console.log(`  playground: ${ms(of('en', 'view'))}`);
  console.log(`  empty app:  ${ms(of('empty', 'view'))}`);
  const fb = median(of('empty', 'fcp'));
  /** `ms` milliseconds, and as a multiple of the empty app's first paint. */
  const vsEmpty = (ms) => `${ms.toFixed(1)} ms, ${(ms / fb).toFixed(2)}×`;
  for (const { key, name } of LANGS) {
    const paint = of(key, 'fcp');
    console.log(`the ${name} first view, median of ${LOADS}:`);
    console.log(`  first contentful paint: ${vsEmpty(median(paint))} the empty Yew app's ${fb.toFixed(1)} ms (target ≤ 1.0×)`);
    console.log(`    playground: ${ms(paint)}`);
    if (key === 'en') console.log(`    empty app:  ${ms(of('empty', 'fcp'))}`);
    const alone = of(`${key} alone`, 'fcp');
    console.log(`  the same page without its scripts, first contentful paint: ${vsEmpty(median(alone))}: the least the playground's first paint can take`);
    console.log(`    paint: ${ms(alone)}`);
    const clickLoads = loads[`${key} clicks`];
    const clicks = clickLoads.map((t) => t.click);
    console.log(`  first click on "Add consumer" that works (before the app runs: kept, and replayed once it has taken over): ${vsEmpty(median(clicks))} (target ≤ 1.5×)`);
    console.log(`    click: ${ms(clicks)}`);
    console.log(`    after the first contentful paint of the same load, median: ${median(clickLoads.map((t) => t.click - t.fcp)).toFixed(1)} ms`);
    const took = clickLoads.map((t) => t.took);
    const consumer = clickLoads.map((t) => t.consumer);
    console.log(`  the app takes over (from here a click acts at once): ${vsEmpty(median(took))}; the first click's consumer on the stage: ${vsEmpty(median(consumer))}`);
    console.log(`    took over: ${ms(took)}`);
    console.log(`    consumer:  ${ms(consumer)}`);
  }
  if (c) {
    const clicks = of('en clicks', 'click');
    const otherClicks = of('other en clicks', 'click');
    const fo = median(of('other en', 'fcp'));
    const co = median(otherClicks);
    console.log(`the other build (${process.env.OTHER_DIST}), median of ${LOADS}: first contentful paint ${vsEmpty(fo)}, first click that works ${vsEmpty(co)}`);
    console.log(`  paint: ${ms(of('other en', 'fcp'))}`);
    console.log(`  click: ${ms(otherClicks)}`);
    console.log(`  paint, zh-CN: ${ms(of('other zh', 'fcp'))}`);
    // The loads of one round follow each other, so the median of the differences within a round is
    // steadier than the difference of the medians when the machine's load drifts.
    const paired = (xs, ys) => median(xs.map((v, i) => v - ys[i]));
    const dp = paired(of('en', 'fcp'), of('other en', 'fcp'));
    const dc = paired(clicks, otherClicks);
    const dz = paired(of('zh', 'fcp'), of('other zh', 'fcp'));
    console.log(`  this build minus the other, median of the ${LOADS} rounds' differences: first contentful paint ${dp.toFixed(1)} ms (zh-CN: ${dz.toFixed(1)} ms), first click that works ${dc.toFixed(1)} ms`);
    await c.close();
  }

  const f = await frames(browser, a.url);
  const med = median(f.gaps);
  const max = Math.max(...f.gaps);
  const over = f.gaps.filter((g) => g > 50).length;
  console.log(`30 consumers at ${f.speed} for ${FRAMES_MS / 1000} s: ${f.gaps.length} frames, median interval ${med.toFixed(2)} ms (target ≤ 17), max ${max.toFixed(1)} ms, ${over} frame(s) > 50 ms (target 0); group ${f.state}, generation ${f.generation}, virtual time ${f.virtual} ms; page errors: ${f.errors.length}; long tasks (> 50 ms of script): ${f.longTasks.length ? f.longTasks.join(', ') + ' ms' : 'none'}`);
  await a.close();
  await b.close();
} finally {
  await browser.close();
}
