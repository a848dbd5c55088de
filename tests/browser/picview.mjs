// Issue 32, the view side: what the picture shows beside the frames. The
// controls stay in sight on a tall graph, the header follows the view
// toggle, focus behaves, Matched: states the zoomed share, a frame without
// self samples says so, a link's search survives in an open tab, siblings
// are apart, and the SVG follows the viewer's colour scheme.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { decodePNG, difffold, parseColor, watch } from './lib.mjs';

function assert(cond, msg) {
	if (!cond) {
		throw new Error(msg);
	}
}

// WCAG relative luminance and contrast ratio of two [r, g, b] colours.
function luminance(c) {
	const lin = c.map((v) => {
		v /= 255;
		return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
	});
	return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

function contrast(a, b) {
	const la = luminance(a), lb = luminance(b);
	return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

async function open(context, url, size, scheme) {
	const page = await context.newPage();
	const w = watch(page);
	await page.setViewportSize(size);
	if (scheme) {
		await page.emulateMedia({ colorScheme: scheme });
	}
	await page.goto(url, { waitUntil: 'load' });
	return { page, w };
}

// The element's box in the window, and whether it is shown.
function boxOf(page, selector) {
	return page.evaluate((sel) => {
		const el = document.querySelector(sel);
		if (!el) {
			return null;
		}
		const r = el.getBoundingClientRect();
		return { top: r.top, bottom: r.bottom, shown: getComputedStyle(el).display !== 'none' && r.width > 0, text: el.textContent };
	}, selector);
}

function inWindow(b, height, what) {
	assert(b && b.shown, `${what} not shown: ${JSON.stringify(b)}`);
	assert(b.top >= 0 && b.bottom <= height, `${what} at y ${b.top.toFixed(0)} to ${b.bottom.toFixed(0)}, outside the ${height} px window`);
}

// A graph much taller than the window: a 120-deep stack beside two
// shallow siblings under the root.
function tallFolded(dir) {
	const deep = Array.from({ length: 120 }, (_, i) => `deep_${i}`).join(';');
	const file = path.join(dir, 'tall.folded');
	fs.writeFileSync(file, `main;${deep} 50\nmain;sys_read 30\nmain;sys_sendto 20\n`);
	return file;
}

export async function picviewChecks(context, t, exe, tmp, root) {
	const tall = path.join(tmp, 'tall.svg');
	const tallBase = path.join(tmp, 'tall-base.folded');
	const tallHead = tallFolded(tmp);
	fs.writeFileSync(tallBase, fs.readFileSync(tallHead, 'utf8').replace('sys_read 30', 'sys_read 60'));
	difffold(exe, [tallBase, tallHead, '-o', tall]);
	const tallUrl = pathToFileURL(tall).href;
	const size = { width: 1220, height: 760 };

	await t.check('picview: scrolled to the root, the details line, search field and Matched: stay in the window', async () => {
		const { page, w } = await open(context, tallUrl, size);
		try {
			const p = await page.evaluate(() => {
				const r = document.querySelectorAll('g.frame > rect')[1];
				r.scrollIntoView({ block: 'end' });
				const b = r.getBoundingClientRect();
				return { x: b.left + 40, y: b.top + b.height / 2, scrolled: window.scrollY };
			});
			assert(p.scrolled > 500, `not scrolled: ${p.scrolled}`);
			await page.mouse.move(p.x, p.y);
			await page.waitForFunction(() => document.querySelector('.details').textContent.startsWith('main '), null, { timeout: 5000 });
			inWindow(await boxOf(page, '.details'), size.height, 'details line');
			await page.keyboard.press('Control+f');
			await page.keyboard.type('sys_');
			const field = await boxOf(page, '.search-field');
			inWindow(field, size.height, 'search field');
			assert(field.text.includes('sys_'), `field says '${field.text}'`);
			await page.keyboard.press('Enter');
			inWindow(await boxOf(page, '.matched'), size.height, 'Matched:');
			inWindow(await boxOf(page, '.search-button'), size.height, 'Search button');
			// Scrolled back to the top, everything is where it was written.
			await page.evaluate(() => window.scrollTo(0, 0));
			await page.waitForTimeout(50);
			const moved = await page.evaluate(() => Array.from(document.querySelectorAll('g.controls > text'), (e) => e.getAttribute('transform')).filter(Boolean));
			assert(moved.length === 0, `controls still moved at the top: ${moved}`);
			assert(w.errors.length === 0, w.errors.join('\n'));
		} finally {
			await page.close();
		}
	});

	await t.check('picview: the header says the view shown, back to the file\'s in the written view', async () => {
		const { page, w } = await open(context, tallUrl, size);
		try {
			const header = () => page.evaluate(() => Array.from(document.querySelectorAll('g.header > text'), (e) => e.textContent).join('\n'));
			const written = await header();
			assert(/widths: head\b/.test(written), `header: ${written}`);
			for (const v of ['base', 'union']) {
				await page.evaluate(() => window.scrollTo(0, 0));
				const b = await page.evaluate((view) => {
					const r = document.querySelector(`.view-toggle[data-view="${view}"]`).getBoundingClientRect();
					return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
				}, v);
				await page.mouse.click(b.x, b.y);
				const h = await header();
				assert(new RegExp(`widths: ${v}\\b`).test(h) && !/widths: head\b/.test(h), `after the ${v} toggle the header says: ${h}`);
			}
			await page.evaluate(() => window.difffold.view('head'));
			assert((await header()) === written, 'the head view does not give back the written header');
			assert(w.errors.length === 0, w.errors.join('\n'));
		} finally {
			await page.close();
		}
	});

	const sample = path.join(tmp, 'picview-sample.svg');
	difffold(exe, [path.join(root, 'samples', 'base.folded'), path.join(root, 'samples', 'head.folded'), '-o', sample]);
	const sampleUrl = pathToFileURL(sample).href;

	await t.check('picview: the first Tab reaches the root frame', async () => {
		const { page } = await open(context, sampleUrl, { width: 1280, height: 800 });
		try {
			await page.keyboard.press('Tab');
			const first = await page.evaluate(() => {
				const a = document.activeElement;
				return a ? `${a.localName}.${a.getAttribute('class')}` : 'none';
			});
			assert(first === 'g.frame', `first Tab lands on ${first}`);
		} finally {
			await page.close();
		}
	});

	await t.check('picview: a click on a frame or the header draws no focus box', async () => {
		const { page } = await open(context, sampleUrl, { width: 1280, height: 800 });
		try {
			await page.mouse.click(600, 300);
			await page.mouse.click(600, 30);
			const ring = await page.evaluate(() => {
				const a = document.activeElement;
				const cs = a ? getComputedStyle(a) : null;
				return cs ? { el: a.localName, style: cs.outlineStyle, width: cs.outlineWidth } : null;
			});
			assert(!ring || ring.style === 'none' || ring.width === '0px', `a click leaves a focus box: ${JSON.stringify(ring)}`);
		} finally {
			await page.close();
		}
	});

	await t.check('picview: zoomed, Matched: gives the zoomed frame\'s share and the whole\'s', async () => {
		const { page } = await open(context, sampleUrl, { width: 1280, height: 800 });
		try {
			const got = await page.evaluate(() => {
				const gs = Array.from(document.querySelectorAll('g.frame'));
				const name = (g) => g.querySelector('title').textContent.split('\n')[0];
				const z = gs.findIndex((g) => name(g) === 'handlers::list_products');
				window.difffold.search('json');
				window.difffold.zoom(z);
				// Expected: matches inside z's subtree (by document order and
				// position), outermost only.
				const rz = gs[z].querySelector('rect');
				const y0 = Number(rz.getAttribute('y'));
				let inside = 0;
				const zx = [Number(rz.getAttribute('x')), Number(rz.getAttribute('x')) + Number(rz.getAttribute('width'))];
				let coveredTo = -1;
				for (const g of gs.slice(z + 1)) {
					const r = g.querySelector('rect');
					const x = Number(r.getAttribute('x'));
					if (Number(r.getAttribute('y')) >= y0 || x < zx[0] - 0.01 || x >= zx[1] - 0.01 || g.getAttribute('display') === 'none') {
						continue;
					}
					if (/json/i.test(name(g)) && x >= coveredTo) {
						inside += Number(g.getAttribute('data-head'));
						coveredTo = x + Number(r.getAttribute('width')) - 0.01;
					}
				}
				return { text: document.querySelector('.matched').textContent, state: window.difffold.state(), want: (inside / Number(gs[z].getAttribute('data-head'))) * 100 };
			});
			const m = /Matched: ([\d.]+)% of the zoomed frame, ([\d.]+)% of all/.exec(got.text);
			assert(m, `Matched: says '${got.text}'`);
			assert(Math.abs(Number(m[1]) - got.want) <= 0.051, `zoomed share ${m[1]}%, the frames give ${got.want.toFixed(2)}%`);
			assert(Number(m[2]) === got.state.matchedPercent && Number(m[1]) !== Number(m[2]), `whole share ${m[2]}%: ${JSON.stringify(got.state)}`);
			await page.evaluate(() => window.difffold.reset());
			const text = await page.evaluate(() => document.querySelector('.matched').textContent);
			assert(/^Matched: [\d.]+%$/.test(text), `after reset: '${text}'`);
		} finally {
			await page.close();
		}
	});

	await t.check('picview: a link with a search opened in a tab showing the file runs it', async () => {
		const { page, w } = await open(context, sampleUrl, { width: 1280, height: 800 });
		try {
			const prefix = await page.evaluate(() => document.documentElement.getAttribute('data-prefix'));
			await page.goto(`${sampleUrl}#${prefix}search=sys`, { waitUntil: 'load' });
			await page.waitForTimeout(100);
			const st = await page.evaluate(() => ({ state: window.difffold.state(), hash: location.hash }));
			assert(st.state.search === 'sys' && st.hash.includes('search=sys'), `the link's search was dropped: ${JSON.stringify(st)}`);
			assert(await page.evaluate(() => document.querySelectorAll('g.frame.match').length) > 0, 'no frame marked');
			// Back and Forward between the script's own entries keep the search shown.
			await page.evaluate(() => window.difffold.zoom(3));
			await page.evaluate(() => window.difffold.search('json'));
			await page.goBack();
			await page.waitForTimeout(100);
			const back = await page.evaluate(() => window.difffold.state());
			assert(back.search === 'json' && back.zoom === null, `Back: ${JSON.stringify(back)}`);
			assert(w.errors.length === 0, w.errors.join('\n'));
		} finally {
			await page.close();
		}
	});

	// Two wide siblings, sys_read and sys_sendto, meet in the file; on the
	// screen one column of background parts them, and each keeps its width
	// within a pixel.
	await t.check('picview: siblings apart in the SVG, widths kept within 1 px', async () => {
		const { page } = await open(context, tallUrl, { width: 1220, height: 760 });
		try {
			const geo = await page.evaluate(() => {
				const find = (nm) => Array.from(document.querySelectorAll('g.frame')).find((g) => g.querySelector('title').textContent.split('\n')[0] === nm);
				const rect = (nm) => {
					const r = find(nm).querySelector('rect');
					r.scrollIntoView({ block: 'center' });
					return { x: Number(r.getAttribute('x')), w: Number(r.getAttribute('width')), fill: getComputedStyle(r).fill };
				};
				const a = rect('sys_read'), b = rect('sys_sendto');
				const r = find('sys_read').querySelector('rect').getBoundingClientRect();
				return { a, b, y: Math.round(r.top + 1), bg: getComputedStyle(document.querySelector('rect.background')).fill };
			});
			assert(Math.abs(geo.a.x + geo.a.w - geo.b.x) < 0.05, `not neighbours: ${JSON.stringify(geo)}`);
			const shot = decodePNG(await page.screenshot({ clip: { x: 0, y: 0, width: 1220, height: 760 } }));
			const bg = parseColor(geo.bg), fa = parseColor(geo.a.fill), fb = parseColor(geo.b.fill);
			const same = (c, d) => Math.max(...c.map((v, k) => Math.abs(v - d[k]))) <= 2;
			// Columns with ink (any but the background: edges blend) from the
			// left sibling's left edge to the right one's, and background
			// columns from the left one's middle to the right one's.
			let inkA = 0, gap = 0;
			for (let x = Math.floor(geo.a.x); x < Math.ceil(geo.b.x); x++) {
				inkA += !same(shot.at(x, geo.y).slice(0, 3), bg);
			}
			for (let x = Math.round(geo.a.x + geo.a.w / 2); x < Math.round(geo.b.x + geo.b.w / 2); x++) {
				gap += same(shot.at(x, geo.y).slice(0, 3), bg);
			}
			assert(same(shot.at(Math.round(geo.a.x) + 2, geo.y).slice(0, 3), fa), 'the left sibling has not its fill');
			assert(gap >= 1 && gap <= 2, `${gap} background columns between the siblings`);
			assert(same(shot.at(Math.round(geo.b.x) + 1, geo.y).slice(0, 3), fb), 'the right sibling does not start at its edge');
			assert(Math.abs(inkA - geo.a.w) <= 1.5, `left sibling drawn ${inkA} px wide for ${geo.a.w} px`);
		} finally {
			await page.close();
		}
	});

	// --theme auto (the default): light as written, dark where the viewer
	// prefers it, in the document and as an <img>; frame labels keep their
	// contrast; --theme light stays light.
	const readColours = (page) =>
		page.evaluate(() => {
			const fill = (el) => getComputedStyle(el).fill;
			const labels = Array.from(document.querySelectorAll('g.frame')).filter((g) => g.querySelector('text').textContent && g.getAttribute('display') !== 'none').map((g) => [fill(g.querySelector('text')), fill(g.querySelector('rect'))]);
			return {
				bg: fill(document.querySelector('rect.background')),
				frames: fill(document.querySelector('g[id$="frames"]')),
				header: Array.from(document.querySelectorAll('g.header > text, g.legend > text, g.controls > text'), fill),
				labels,
			};
		});
	for (const scheme of ['light', 'dark']) {
		await t.check(`picview: colour scheme ${scheme}: background, text and label contrast`, async () => {
			const { page } = await open(context, sampleUrl, { width: 1280, height: 800 }, scheme);
			try {
				const c = await readColours(page);
				const bg = parseColor(c.bg);
				assert(scheme === 'dark' ? luminance(bg) < 0.05 : luminance(bg) > 0.9, `background ${c.bg} in the ${scheme} scheme`);
				for (const h of c.header) {
					assert(contrast(parseColor(h), bg) >= 7, `text ${h} on ${c.bg}: contrast ${contrast(parseColor(h), bg).toFixed(1)}`);
				}
				// The unchanged grey, the frames' common fill, is no light panel in the dark.
				const grey = luminance(parseColor(c.frames));
				assert(scheme === 'dark' ? grey < 0.1 : grey > 0.7, `unchanged frames ${c.frames} in the ${scheme} scheme`);
				assert(c.labels.length > 5, 'no labels');
				for (const [ink, fill] of c.labels) {
					assert(contrast(parseColor(ink), parseColor(fill)) >= 4.5, `label ${ink} on ${fill}`);
				}
			} finally {
				await page.close();
			}
		});
	}

	await t.check('picview: as an <img>, the SVG follows the page\'s dark scheme; --theme light does not', async () => {
		const pinned = path.join(tmp, 'picview-light.svg');
		difffold(exe, ['--theme', 'light', path.join(root, 'samples', 'base.folded'), path.join(root, 'samples', 'head.folded'), '-o', pinned]);
		const html = path.join(tmp, 'picview-img.html');
		fs.writeFileSync(html, `<!doctype html><html><body style="margin:0"><img src="${path.basename(sample)}" style="display:block"><img src="${path.basename(pinned)}" style="display:block"></body></html>`);
		const { page } = await open(context, pathToFileURL(html).href, { width: 1280, height: 900 }, 'dark');
		try {
			const shot = decodePNG(await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 900 } }));
			const h = await page.evaluate(() => document.querySelector('img').naturalHeight);
			const auto = shot.at(3, 3), light = shot.at(3, h + 3);
			assert(luminance(auto.slice(0, 3)) < 0.05, `auto picture's corner ${auto} in a dark page`);
			assert(luminance(light.slice(0, 3)) > 0.9, `--theme light picture's corner ${light} in a dark page`);
		} finally {
			await page.close();
		}
	});
}
