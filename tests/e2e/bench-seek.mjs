// Seek benchmark (a benchmark to run and read, not a test):
//
//   node tests/e2e/bench-seek.mjs        (after `trunk build --release --offline`; E2E_DIST picks the build)
//
// The session: the playground's own start with 20 consumers added through the button, exported,
// given `end_ms` = 30 minutes and imported again (the import replays it, keeping the timeline's
// snapshots). Then SEEKS random seeks (a fixed pseudo-random sequence, the same every run) on the
// timeline slider, each timed from the input event to:
//
//   * dom:   the new state in the document (a MutationObserver sees the clock's data-ms change),
//   * frame: the next frame after it (requestAnimationFrame, then a task: the frame is painted).
//
// It prints the median and worst of both (target: at most 50 ms per seek), the import's replay time,
// and the long tasks (> 50 ms of script) seen during the seeks.
//
// Environment: SEEKS (default 100), MINUTES (default 30), CONSUMERS (default 20); SEQUENCE=1 opens
// the sequence diagram first (it then redraws on every seek too).
import { readFile } from 'node:fs/promises';
import { launchBrowser, serveDist, DIST, median, seededTimes } from './harness.mjs';

const SEEKS = Number(process.env.SEEKS ?? 100);
const MINUTES = Number(process.env.MINUTES ?? 30);
const CONSUMERS = Number(process.env.CONSUMERS ?? 20);
const SEQUENCE = process.env.SEQUENCE === '1';



const server = await serveDist();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  const add = page.getByRole('button', { name: 'Add consumer' });
  for (let i = 0; i < CONSUMERS; i++) await add.click();
  await page.getByRole('article').nth(CONSUMERS - 1).waitFor();

  // Export the session, stretch it to MINUTES, import it.
  const share = page.getByRole('region', { name: 'Share and save' });
  const download = page.waitForEvent('download');
  await share.getByRole('button', { name: 'Export JSON' }).click();
  const scenario = JSON.parse(await readFile(await (await download).path(), 'utf8'));
  const end = MINUTES * 60_000;
  scenario.end_ms = end;
  const started = Date.now();
  await share.getByLabel('Import JSON').setInputFiles({
    name: 'bench.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  // (An import opens at t=0 once it has replayed the whole session.)
  await page.getByRole('slider', { name: 'Timeline' }).and(page.locator(`[max="${end}"]`)).waitFor({ timeout: 120_000 });
  const importMs = Date.now() - started;
  const slider = page.getByRole('slider', { name: 'Timeline' });
  if (SEQUENCE) {
    await page.getByTestId('sequence-diagram').getByText('Sequence diagram', { exact: true }).click();
    await page.locator('.seq-body .seq-msg').first().waitFor();
  }
  const snapshots = await page.locator('.timeline').getAttribute('data-snapshots');
  const logLen = await page.evaluate(() => document.querySelectorAll('.log-line').length);

  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(Math.round(e.duration))))
      .observe({ type: 'longtask' });
  });
  const dom = [];
  const frame = [];
  const wrong = [];
  for (const t of seededTimes(end, SEEKS)) {
    const r = await slider.evaluate(
      (el, t) =>
        new Promise((ok) => {
          const clock = document.querySelector('[data-testid=clock]');
          let domAt;
          const obs = new MutationObserver(() => {
            if (domAt === undefined && clock.getAttribute('data-ms') === String(t)) domAt = performance.now();
          });
          obs.observe(clock, { attributes: true, attributeFilter: ['data-ms'] });
          const t0 = performance.now();
          el.value = String(t);
          el.dispatchEvent(new Event('input', { bubbles: true }));
          requestAnimationFrame(() =>
            setTimeout(() => {
              const t1 = performance.now();
              obs.disconnect();
              if (domAt === undefined && clock.getAttribute('data-ms') === String(t)) domAt = t1;
              ok({ dom: domAt === undefined ? null : domAt - t0, frame: t1 - t0, shown: clock.getAttribute('data-ms') });
            }, 0),
          );
        }),
      t,
    );
    if (r.dom === null || r.shown !== String(t)) wrong.push(`${t}: shown ${r.shown}`);
    dom.push(r.dom ?? r.frame);
    frame.push(r.frame);
  }
  const longTasks = await page.evaluate(() => window.__longTasks);
  await context.close();

  const f = (x) => x.toFixed(1);
  console.log(`build: ${DIST}`);
  console.log(`session: ${CONSUMERS} consumers, ${MINUTES} min of virtual time; import (replay from 0 with snapshots) ${importMs} ms; ${snapshots} snapshots; ${logLen} log lines shown; sequence diagram ${SEQUENCE ? 'open' : 'closed'}`);
  console.log(`${SEEKS} random seeks, input event → state in the document: median ${f(median(dom))} ms, worst ${f(Math.max(...dom))} ms`);
  console.log(`${SEEKS} random seeks, input event → next frame painted:    median ${f(median(frame))} ms, worst ${f(Math.max(...frame))} ms (target ≤ 50)`);
  console.log(`  sorted (frame): ${[...frame].sort((a, b) => a - b).map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`long tasks (> 50 ms of script) during the seeks: ${longTasks.length ? longTasks.join(', ') + ' ms' : 'none'}`);
  console.log(`seeks that did not show their time: ${wrong.length ? wrong.join('; ') : 'none'}; page errors: ${errors.length ? errors.join('; ') : 'none'}`);
} finally {
  await browser.close();
  await server.close();
}
