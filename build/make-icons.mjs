// Renders build/icon.svg to the PNG sizes the installers use, plus a Windows .ico, with headless Chromium
// (Debian's /usr/bin/chromium through playwright-core). Run: node build/make-icons.mjs
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const svg = readFileSync(path.join(here, 'icon.svg'), 'utf8');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const pngs = new Map();
try {
  const page = await browser.newPage();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    pngs.set(size, await page.locator('svg').screenshot({ omitBackground: true }));
  }
} finally {
  await browser.close();
}

mkdirSync(path.join(here, 'icons'), { recursive: true });
for (const [size, png] of pngs) writeFileSync(path.join(here, 'icons', `${size}x${size}.png`), png);
writeFileSync(path.join(here, 'icon.png'), pngs.get(1024));

// ICO: a directory of PNG images (supported since Windows Vista).
const images = ICO_SIZES.map((s) => ({ size: s, data: pngs.get(s) }));
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach(({ size, data }, i) => {
  const e = 6 + 16 * i;
  header.writeUInt8(size >= 256 ? 0 : size, e);
  header.writeUInt8(size >= 256 ? 0 : size, e + 1);
  header.writeUInt16LE(1, e + 4);
  header.writeUInt16LE(32, e + 6);
  header.writeUInt32LE(data.length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += data.length;
});
writeFileSync(path.join(here, 'icon.ico'), Buffer.concat([header, ...images.map((i) => i.data)]));
console.log(`wrote ${SIZES.length} PNGs, icon.png and icon.ico to ${here}`);
