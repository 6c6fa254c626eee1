// Screenshots for the lead's look (not a test).
import { serveDist, launchBrowser, openPage } from './harness.mjs';
const OUT = '/tmp/shots';
const sizes = [[1366, 850], [1920, 1080], [390, 844]];
const srv = await serveDist();
const browser = await launchBrowser();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (const [w, h] of sizes) {
  for (const lang of ['en', 'zh']) {
    const { context, page, errors } = await openPage(browser, srv.url, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: w, height: h }, serviceWorkers: 'block' });
    const tag = `${w}x${h}-${lang}`;
    // The consumer protocol on the main stage: three members through the Advanced form part.
    const adv = page.locator('#consumer-group-protocol');
    if (await adv.count()) {
      const det = page.locator('details:has(#consumer-group-protocol) > summary').first();
      if (await det.count()) await det.click().catch(() => {});
      await adv.selectOption('consumer').catch((e) => console.log('select', e.message));
    }
    const add = page.getByRole('button', { name: lang === 'zh' ? /添加消费者/ : /Add consumer/ }).first();
    for (let i = 0; i < 3; i++) { await add.click(); await sleep(1500); }
    await sleep(4000);
    await page.screenshot({ path: `${OUT}/kip848-stage-${tag}.png` });
    await page.screenshot({ path: `${OUT}/kip848-stage-full-${tag}.png`, fullPage: true });
    await page.close(); await context.close();
    // Compare mode with three classic-default consumers.
    const b = await openPage(browser, srv.url, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: w, height: h }, serviceWorkers: 'block' });
    await b.page.getByRole('button', { name: lang === 'zh' ? '对比协议' : 'Compare protocols' }).click();
    const add2 = b.page.getByRole('button', { name: lang === 'zh' ? /添加消费者/ : /Add consumer/ }).first();
    for (let i = 0; i < 3; i++) { await add2.click(); await sleep(1500); }
    await sleep(6000);
    await b.page.screenshot({ path: `${OUT}/compare-${tag}.png` });
    await b.page.screenshot({ path: `${OUT}/compare-full-${tag}.png`, fullPage: true });
    console.log(tag, 'errors:', errors.length + b.errors.length, [...errors, ...b.errors].slice(0, 3).join(' | '));
    await b.page.close(); await b.context.close();
  }
}
// Lesson 18 in Chinese at projector size.
const l = await openPage(browser, srv.url, { locale: 'zh-CN', viewport: { width: 1920, height: 1080 }, serviceWorkers: 'block' });
const sel = l.page.locator('.lesson-panel select, select').filter({ has: l.page.locator('option', { hasText: '18.' }) }).first();
await sel.selectOption({ index: 17 }).catch((e) => console.log('lesson select', e.message));
await l.page.getByRole('button', { name: '打开课程' }).click().catch((e) => console.log('open', e.message));
await sleep(3000);
await l.page.screenshot({ path: `${OUT}/lesson18-1920-zh.png` });
console.log('lesson errors', l.errors.slice(0, 3));
await browser.close(); await srv.close();
