// Frame budget with the sequence diagram open (a benchmark to run and read, not a test):
//
//   node tests/e2e/bench-sequence.mjs      (after `trunk build --release --offline`; E2E_DIST picks the build)
//
// The session: the playground's own start, CONSUMERS consumers added through the button, the
// sequence diagram opened, the speed set to the slider's step nearest 4×; then, for FRAMES_MS of
// wall-clock time, the interval between animation frames. It prints the median and the worst
// interval (target: median at most 17 ms, no frame over 50 ms), the long tasks (> 50 ms of script
// on the main thread: the app's own stalls, told apart from the machine's), how many messages the
// diagram drew, and the machine's load average before and after (a busy machine delays frames
// without any long task).
//
// Environment: CONSUMERS (default 30), FRAMES_MS (default 20000), SEQUENCE=0 leaves the diagram
// closed (the same run without it, for comparison). tests/e2e/bench-sequence.test.mjs runs it
// briefly to check that it still runs and reports.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchBrowser, serveDist, DIST, median } from './harness.mjs';


/**
 * Runs the measurement on a fresh page of `browser` at `url`; resolves to the frame intervals and
 * what the page showed at the end.
 */
export async function sequenceFrames(browser, url, { consumers = 30, framesMs = 20_000, sequence = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(url);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const add = page.getByRole('button', { name: 'Add consumer' });
    for (let i = 0; i < consumers; i++) await add.click();
    await page.getByRole('article').nth(consumers - 1).waitFor();
    if (sequence) {
      await page.getByTestId('sequence-diagram').getByText('Sequence diagram', { exact: true }).click();
      await page.locator('.seq-body .seq-msg').first().waitFor();
    }
    // 10^(6/10) = 3.98×, the slider's step nearest 4×.
    await page.getByRole('slider', { name: 'Speed' }).fill('6');
    const speed = await page.locator('.toolbar-speed-value').textContent();
    const { stamps, longTasks, redraws } = await page.evaluate(
      (ms) =>
        new Promise((ok) => {
          const stamps = [];
          const longTasks = [];
          new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(Math.round(e.duration))))
            .observe({ type: 'longtask' });
          // How often the diagram's now-marker moved: the diagram kept up with the time.
          let redraws = 0;
          const body = document.querySelector('.sequence-scroll');
          const obs = body && new MutationObserver(() => redraws++);
          obs?.observe(body, { subtree: true, childList: true, attributes: true });
          const start = performance.now();
          const tick = (t) => {
            stamps.push(t);
            if (t - start < ms) requestAnimationFrame(tick);
            else {
              obs?.disconnect();
              ok({ stamps, longTasks, redraws });
            }
          };
          requestAnimationFrame(tick);
        }),
      framesMs,
    );
    const messages = await page.locator('.seq-body .seq-msg').count();
    const state = await page.getByTestId('group-state').textContent();
    const generation = await page.getByTestId('generation').textContent();
    const virtual = await page.getByTestId('clock').getAttribute('data-ms');
    const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
    return { speed, gaps, longTasks, redraws, messages, state, generation, virtual: Number(virtual), errors };
  } finally {
    await context.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const consumers = Number(process.env.CONSUMERS ?? 30);
  const framesMs = Number(process.env.FRAMES_MS ?? 20_000);
  const sequence = process.env.SEQUENCE !== '0';
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const loadBefore = loadavg();
    const f = await sequenceFrames(browser, server.url, { consumers, framesMs, sequence });
    const loadAfter = loadavg();
    const med = median(f.gaps);
    const max = Math.max(...f.gaps);
    const over = f.gaps.filter((g) => g > 50).length;
    const p95 = [...f.gaps].sort((a, b) => a - b)[Math.floor(f.gaps.length * 0.95)];
    const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
    console.log(`build: ${DIST}`);
    console.log(`${consumers} consumers at ${f.speed}, sequence diagram ${sequence ? 'open' : 'closed'}, ${framesMs / 1000} s: ${f.gaps.length} frames`);
    console.log(`  frame interval: median ${med.toFixed(2)} ms (target ≤ 17), p95 ${p95.toFixed(1)} ms, worst ${max.toFixed(1)} ms, ${over} frame(s) > 50 ms (target 0)`);
    console.log(`  long tasks (> 50 ms of script): ${f.longTasks.length ? f.longTasks.join(', ') + ' ms' : 'none'}`);
    console.log(`  diagram: ${f.messages} messages drawn, ${f.redraws} DOM mutations; group ${f.state}, generation ${f.generation}, virtual time ${f.virtual} ms`);
    console.log(`  machine load average (1, 5, 15 min): before ${load(loadBefore)}, after ${load(loadAfter)} on 2 cores`);
    console.log(`  page errors: ${f.errors.length ? f.errors.join('; ') : 'none'}`);
  } finally {
    await browser.close();
    await server.close();
  }
}
