// The release build's app in parts (scripts/build-app.sh, src/lazy.rs): the first load carries the
// group view only; the detail panels' module comes once the app has taken over, the scenario
// reader's only when the page opens a saved session or a link. A part the network does not deliver
// is said where it is missing, and nothing the user had is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server, browser, useServerAndBrowser, openPage, addConsumers, waitForText, screenshot } from './harness.mjs';

useServerAndBrowser();

/** The app's later parts: the split points' modules and the chunks they share. */
const LATER = /\/app-[0-9a-f]{16}\/(split|chunk)_[^/]*\.wasm$/;

/** Records, from the page's start, when the app took over (`playground-took-over`). */
async function watchTakeOver(context) {
  await context.addInitScript(() => {
    addEventListener('playground-took-over', () => (window.__tookOverAt = performance.now()), { once: true });
  });
}

/** The resources the page fetched, with when each started (ms from the page's start). */
function resources(page) {
  return page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, at: e.startTime })),
  );
}

test('the first load is the group view: the detail panels come once the app has taken over, the scenario reader only for a saved session', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await watchTakeOver(context);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(server.url);
  // The detail panels are there once their module is (the consumers' list is one of them).
  await page.getByRole('region', { name: 'Share and save' }).waitFor();
  const tookOverAt = await page.evaluate(() => window.__tookOverAt);
  assert.ok(tookOverAt > 0, 'the app took over');
  const fetched = await resources(page);
  const before = fetched.filter((r) => r.at < tookOverAt).map((r) => r.path);
  assert.ok(before.some((p) => /\/app-[0-9a-f]{16}\/app_bg\.wasm$/.test(p)), `the first module is in the first load: ${before}`);
  assert.deepEqual(before.filter((p) => LATER.test(p)), [], 'no later part is fetched before the app has taken over');
  const later = fetched.filter((r) => LATER.test(r.path)).map((r) => r.path.replace(/.*\//, ''));
  assert.ok(later.includes('split_panels.wasm'), `the panels' module came once the app had taken over: ${later}`);
  assert.ok(!later.includes('split_restore.wasm'), 'nothing saved, no link: the scenario reader is not fetched');
  assert.deepEqual(errors, []);
  await context.close();
});

test('when the detail panels cannot be fetched, the group view works and "Try again" brings them', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.route('**/split_panels.wasm', (route) => route.abort());
  const second = await context.newPage();
  const seen = [];
  second.on('console', (m) => m.type() === 'error' && seen.push(m.text()));
  second.on('pageerror', (e) => seen.push(`page error: ${e.message}`));
  await second.goto(server.url);
  const missing = second.getByRole('alert').filter({ hasText: 'The detail panels (lessons, consumers' });
  await waitForText(missing, /did not load: the network failed\. The group view works without them\./);
  assert.ok(seen.length > 0, 'the browser logged why the module did not load');
  // The group view does not need them: a consumer added now is on the stage and in the group.
  await addConsumers(second, 1);
  await second.locator('.stage-consumer').first().waitFor();
  await waitForText(second.getByTestId('member-count'), /^1$/);
  await screenshot(second, 'panels-not-loaded');
  // Compare mode comes with them: opening it says why it cannot, and the session stays.
  await second.getByRole('button', { name: 'Compare protocols' }).click();
  await waitForText(second.getByRole('alert').filter({ hasText: 'Not possible now' }), /compare mode comes with the detail panels, which did not load \(the network failed\); try again/);
  assert.equal(await second.locator('.stage-consumer').count(), 1, 'the stage still shows the session');

  await context.unroute('**/split_panels.wasm');
  await missing.getByRole('button', { name: 'Try again' }).click();
  await second.getByRole('article').filter({ hasText: 'C1' }).waitFor();
  assert.equal(await missing.count(), 0, 'the message is gone once the panels are here');
  assert.deepEqual(seen.filter((e) => /page error/.test(e)), [], 'no error but the failed fetch');
  await context.close();
});

test('when the scenario reader cannot be fetched, the saved session is kept until the user acts', async () => {
  const key = 'rebalance-playground.session';
  const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  await addConsumers(page, 1);
  await page.getByRole('toolbar').getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction((key) => localStorage.getItem(key)?.startsWith('rb1.'), key);
  await page.close();
  assert.deepEqual(errors, []);

  // The same browser (its storage) on a network that does not deliver the reader.
  await context.route('**/split_restore.wasm', (route) => route.abort());
  await context.addInitScript((key) => (window.__savedAtStart = localStorage.getItem(key)), key);
  const p = await context.newPage();
  await p.goto(server.url);
  const alert = p.getByRole('alert').filter({ hasText: 'Your saved session could not be opened' });
  await waitForText(alert, /Reload the page to try again; until you act here, nothing you had saved is overwritten\./);
  const saved = await p.evaluate(() => window.__savedAtStart);
  assert.match(saved, /^rb1\./);
  // The share bar (it saves the session) is here and time runs: the autosave still holds the
  // session saved before.
  await p.getByRole('region', { name: 'Share and save' }).waitFor();
  await p.getByRole('toolbar').getByRole('button', { name: 'Play' }).click();
  await p.waitForFunction(() => Number(document.querySelector('[data-testid="clock"]')?.getAttribute('data-ms')) > 2000);
  assert.equal(await p.evaluate((k) => localStorage.getItem(k), key), saved);
  await screenshot(p, 'not-restored');

  // The network is back: a reload opens the saved session (its consumer C1).
  await context.unroute('**/split_restore.wasm');
  await p.reload();
  await p.getByRole('article').filter({ hasText: 'C1' }).waitFor();
  await context.close();
});

/**
 * The rules of the detail panels' stylesheet (`static/panels.css`, from the page's disabled link)
 * that match an element of the page outside `within` (a selector of the panels' own places), with
 * the elements they match. Rules under a media query count where the query holds.
 */
async function panelRulesOutside(page, within) {
  return page.evaluate(async (within) => {
    const href = document.getElementById('panels-css').href;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(await (await fetch(href)).text());
    const found = [];
    const walk = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSMediaRule) {
          if (matchMedia(rule.conditionText).matches) walk(rule.cssRules);
        } else if (rule instanceof CSSStyleRule) {
          // (Pseudo-elements are the element's own parts.)
          const selector = rule.selectorText.replace(/::[\w-]+(\([^)]*\))?/g, '');
          for (const el of document.querySelectorAll('body *')) {
            if ((within && el.closest(within)) || el.closest('template')) continue;
            if (el.matches(selector)) found.push(`${rule.selectorText} matches ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
          }
        }
      }
    };
    walk(sheet.cssRules);
    return found;
  }, within);
}

test("the detail panels' stylesheet comes with them and styles nothing of the group view", async () => {
  // The first view, as the HTML draws it (English and Chinese, a laptop and a phone): no rule of
  // the panels' stylesheet applies to it, so it looks the same before and after the panels come.
  for (const [lang, width] of [['en', 1366], ['zh', 1366], ['en', 390], ['zh', 390]]) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 850 } });
    const page = await context.newPage();
    await page.goto(server.url);
    if (lang === 'zh') {
      // What the page's inline script does for a Chinese browser.
      await page.evaluate(() => {
        document.documentElement.classList.add('first-view-zh');
        const view = document.getElementById('prerender');
        view.replaceChildren(document.getElementById('prerender-zh').content.cloneNode(true));
        view.classList.add('is-zh');
      });
    }
    await page.locator('#prerender .stage').waitFor();
    assert.equal(await page.locator('#panels-css').evaluate((l) => l.sheet), null, 'the first view does not fetch it');
    assert.deepEqual(await panelRulesOutside(page, null), [], `${lang} ${width}: the first view`);
    await context.close();
  }
  // The app's group view with consumers on the stage, playing, then in presentation mode: the
  // panels' rules style the side column only.
  const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  await addConsumers(page, 3);
  await page.getByRole('article').filter({ hasText: 'C3' }).waitFor();
  assert.ok(await page.locator('#panels-css').evaluate((l) => !l.disabled && l.sheet !== null), 'applied once the panels are here');
  assert.deepEqual(await panelRulesOutside(page, '.app-col-side'), []);
  await page.keyboard.press('p');
  await page.locator('.app.is-presenting').waitFor();
  assert.deepEqual(await panelRulesOutside(page, '.app-col-side'), []);
  assert.deepEqual(errors, []);
  await context.close();
});
