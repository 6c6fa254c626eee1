// Compare-mode benchmarks (a benchmark to run and read, not a test):
//
//   node tests/e2e/bench-compare.mjs     (after `trunk build --release --offline`; E2E_DIST picks the build)
//
// 1. Frames: compare mode, CONSUMERS (default 30) consumers added through the button (so every
//    protocol's stage has 30), speed ~4× (slider step 6: 10^0.6 = 3.98×); the interval between
//    animation frames over FRAMES_MS (default 20 s). Target: median ≤ 17 ms, no frame > 50 ms.
// 2. Seeks: the same session exported, stretched to MINUTES (default 30) of virtual time,
//    imported, compare mode opened on it (it replays every protocol to the end), then SEEKS
//    (default 100) seeks of the timeline slider to fixed pseudo-random times, each timed from the
//    input event to the next painted frame. Target: median and worst ≤ 50 ms.
import { readFile } from 'node:fs/promises';
import { launchBrowser, serveDist, DIST, median, seededTimes } from './harness.mjs';

const CONSUMERS = Number(process.env.CONSUMERS ?? 30);
const FRAMES_MS = Number(process.env.FRAMES_MS ?? 20_000);
const MINUTES = Number(process.env.MINUTES ?? 30);
const SEEKS = Number(process.env.SEEKS ?? 100);



const server = await serveDist();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: 'Compare protocols' }).click();
  await page.getByTestId('compare').waitFor();
  const add = page.getByRole('button', { name: 'Add consumer' });
  for (let i = 0; i < CONSUMERS; i++) await add.click();
  await page.getByRole('article').nth(CONSUMERS - 1).waitFor();
  await page.getByRole('slider', { name: 'Speed' }).fill('6');
  await page.getByRole('toolbar').getByRole('button', { name: 'Play' }).click();
  const frames = await page.evaluate(
    (ms) =>
      new Promise((ok) => {
        const out = [];
        let last;
        const t0 = performance.now();
        const tick = (t) => {
          if (last !== undefined) out.push(t - last);
          last = t;
          if (t - t0 < ms) requestAnimationFrame(tick);
          else ok(out);
        };
        requestAnimationFrame(tick);
      }),
    FRAMES_MS,
  );
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  const over = frames.filter((f) => f > 50).length;
  console.log(`build: ${DIST}`);
  console.log(`frames: compare mode, ${CONSUMERS} consumers per protocol, ~4×, ${FRAMES_MS} ms: ${frames.length} frames, median ${median(frames).toFixed(1)} ms, worst ${Math.max(...frames).toFixed(1)} ms, ${over} over 50 ms (target median ≤ 17, none over 50)`);

  // Seeks: export, stretch, import, compare.
  await page.getByRole('button', { name: 'Back to the session' }).click();
  for (let i = 0; i < CONSUMERS; i++) await add.click();
  await page.getByRole('article').nth(CONSUMERS - 1).waitFor();
  const share = page.getByRole('region', { name: 'Share and save' });
  const download = page.waitForEvent('download');
  await share.getByRole('button', { name: 'Export JSON' }).click();
  const scenario = JSON.parse(await readFile(await (await download).path(), 'utf8'));
  const end = MINUTES * 60_000;
  scenario.end_ms = end;
  // A consumer killed every 5 minutes, so that the lanes have rebalances to show.
  for (let m = 5; m < MINUTES; m += 5) scenario.actions.push({ type: 'kill', at_ms: m * 60_000, consumer: `C${m / 5}` });
  await share.getByLabel('Import JSON').setInputFiles({
    name: 'bench.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  // An imported scenario is replayed to its end and opens at t=0, paused: the timeline reaches
  // to the end.
  const slider = page.getByRole('slider', { name: 'Timeline' });
  const reaches = (want) => page.waitForFunction((want) => document.querySelector('.timeline input[type=range]')?.max === want, String(want), { timeout: 600_000 });
  await reaches(end);
  // Compare mode replays the session up to the shown time: show its end first.
  await slider.evaluate((el, t) => {
    el.value = String(t);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, end);
  await page.getByTestId('clock').and(page.locator(`[data-ms="${end}"]`)).waitFor({ timeout: 600_000 });
  const started = Date.now();
  await page.getByRole('button', { name: 'Compare protocols' }).click();
  await page.getByTestId('compare').waitFor({ timeout: 600_000 });
  await reaches(end);
  const compareMs = Date.now() - started;
  const frame = [];
  const wrong = [];
  for (const t of seededTimes(end, SEEKS)) {
    const r = await slider.evaluate(
      (el, t) =>
        new Promise((ok) => {
          const t0 = performance.now();
          el.value = String(t);
          el.dispatchEvent(new Event('input', { bubbles: true }));
          requestAnimationFrame(() =>
            setTimeout(() => ok({ frame: performance.now() - t0, shown: document.querySelector('[data-testid=clock]').getAttribute('data-ms') }), 0),
          );
        }),
      t,
    );
    if (r.shown !== String(t)) wrong.push(`${t}: shown ${r.shown}`);
    frame.push(r.frame);
  }
  console.log(`seeks: ${CONSUMERS} consumers × 3 protocols, ${MINUTES} min; opening compare mode (every protocol replayed, lanes sampled) ${compareMs} ms`);
  console.log(`${SEEKS} seeks, input event → next frame painted: median ${median(frame).toFixed(1)} ms, worst ${Math.max(...frame).toFixed(1)} ms (target ≤ 50)`);
  console.log(`seeks that did not show their time: ${wrong.length ? wrong.slice(0, 5).join('; ') : 'none'}; page errors: ${errors.length ? errors.join('; ') : 'none'}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
