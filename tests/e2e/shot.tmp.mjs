import { chromium } from 'playwright-core';
const base = process.argv[2];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [w, h, tag] of [[1366, 850, 'laptop'], [1920, 1080, 'projector'], [390, 844, 'phone']]) {
  for (const lang of ['en', 'zh-CN']) {
    const ctx = await b.newContext({ viewport: { width: w, height: h }, locale: lang });
    const p = await ctx.newPage();
    const errors = [];
    p.on('pageerror', e => errors.push(String(e)));
    await p.goto(base);
    await p.waitForSelector('[data-testid=group-state]');
    await p.waitForTimeout(1500);
    const add = p.getByRole('button', { name: lang === 'en' ? /Add consumer/ : /添加消费者/ }).first();
    for (let i = 0; i < 3; i++) { await add.click(); await p.waitForTimeout(300); }
    await p.waitForTimeout(8000);
    await p.screenshot({ path: `/tmp/shot-${tag}-${lang}.png` });
    const cmp = p.getByRole('button', { name: lang === 'en' ? 'Compare protocols' : '对比协议' });
    if (await cmp.count()) { await cmp.first().click(); await p.waitForTimeout(6000); await p.screenshot({ path: `/tmp/shot-${tag}-${lang}-compare.png` }); }
    console.log(tag, lang, 'errors:', errors.length, errors.slice(0, 2).join(' | '));
    await ctx.close();
  }
}
await b.close();
