#!/usr/bin/env node
// browser-check.js: load an HTML file in headless Chromium and check it, for
// the t06xx tests.  No npm packages: Chromium is driven over the DevTools
// protocol on a pipe (--remote-debugging-pipe: NUL-terminated JSON on fds
// 3 and 4), and screenshots are decoded with node's zlib.
//
// usage: browser-check.js FILE.html OUT.png [JS-EXPRESSION...]
//   Prints one line per check to stdout:
//     console-errors N        console errors, uncaught exceptions, error log entries
//     console-warnings N      console.warn calls (then each as "warning: ...")
//     console.log: TEXT       each console.log of the page
//     requests N              network requests other than FILE itself
//     colours N               distinct colours in the full-page screenshot
//     height N                page height in CSS pixels
//     eval EXPR => VALUE      each JS expression's value (JSON)
//   and each console error as "error: ...".  Exit 0 when the page loaded.
//   Environment: BROWSER_CHECK_HASH (a #fragment), BROWSER_CHECK_WAIT_MS (a
//   wait after the load event), BROWSER_CHECK_TILES (below), BROWSER_CHECK_TIMEOUT_MS.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const [file, outPng, ...exprs] = process.argv.slice(2);
if (!file || !outPng) {
	console.error('usage: browser-check.js FILE.html OUT.png [EXPR...]');
	process.exit(2);
}
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tdperf-chromium-'));
// BROWSER_CHECK_HASH: a #fragment for the URL (speedscope's #localProfilePath=)
const url = 'file://' + path.resolve(file) + (process.env.BROWSER_CHECK_HASH || '');
const child = spawn(chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
	'--user-data-dir=' + profile, '--remote-debugging-pipe', '--window-size=1280,2000',
	'about:blank',
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
// Chromium's own helpers (renderer, zygote) share its process group: we
// end that group, and only it, when done.
const exited = new Promise((resolve) => child.on('exit', resolve));
const toBrowser = child.stdio[3], fromBrowser = child.stdio[4];

let nextId = 1, buffer = '', sessionId = null;
const pending = new Map(), errors = [], requests = [], warnings = [], logs = [];
const waiters = [];

function send(method, params = {}, sid = sessionId) {
	const id = nextId++;
	const msg = { id, method, params };
	if (sid) msg.sessionId = sid;
	toBrowser.write(JSON.stringify(msg) + '\0');
	return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
function waitFor(method) {
	return new Promise((resolve) => waiters.push({ method, resolve }));
}
fromBrowser.on('data', (chunk) => {
	buffer += chunk.toString('utf8');
	let nul;
	while ((nul = buffer.indexOf('\0')) >= 0) {
		const msg = JSON.parse(buffer.slice(0, nul));
		buffer = buffer.slice(nul + 1);
		if (msg.id && pending.has(msg.id)) {
			const p = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) p.reject(new Error(p.method + ': ' + msg.error.message));
			else p.resolve(msg.result);
			continue;
		}
		const m = msg.method, prm = msg.params || {};
		if (m === 'Runtime.consoleAPICalled' && (prm.type === 'error' || prm.type === 'assert'))
			errors.push('console.' + prm.type + ': ' + prm.args.map((a) => a.value || a.description).join(' '));
		if (m === 'Runtime.consoleAPICalled' && (prm.type === 'warning' || prm.type === 'log'))
			(prm.type === 'log' ? logs : warnings).push(prm.args.map((a) => a.value || a.description).join(' '));
		if (m === 'Runtime.exceptionThrown')
			errors.push('Uncaught ' + (prm.exceptionDetails.exception || {}).description || prm.exceptionDetails.text);
		if (m === 'Log.entryAdded' && prm.entry.level === 'error')
			errors.push('log: ' + prm.entry.text + (prm.entry.url ? ' (' + prm.entry.url + ')' : ''));
		if (m === 'Network.requestWillBeSent' && prm.request.url !== url && !prm.request.url.startsWith('data:'))
			requests.push(prm.request.url);
		for (let i = waiters.length - 1; i >= 0; i--)
			if (waiters[i].method === m) { waiters[i].resolve(prm); waiters.splice(i, 1); }
	}
});

// Distinct colours of a PNG (8-bit RGB or RGBA, as Chromium writes them).
function countColours(png) {
	let pos = 8, width = 0, height = 0, type = 0;
	const idat = [];
	while (pos < png.length) {
		const len = png.readUInt32BE(pos), kind = png.toString('ascii', pos + 4, pos + 8);
		const data = png.subarray(pos + 8, pos + 8 + len);
		if (kind === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); type = data[9]; if (data[8] !== 8) throw new Error('PNG depth ' + data[8]); }
		if (kind === 'IDAT') idat.push(data);
		pos += 12 + len;
	}
	const bpp = type === 6 ? 4 : type === 2 ? 3 : 0;
	if (!bpp) throw new Error('PNG colour type ' + type);
	const raw = zlib.inflateSync(Buffer.concat(idat)), stride = width * bpp;
	const prev = Buffer.alloc(stride), cur = Buffer.alloc(stride), seen = new Set();
	for (let y = 0; y < height; y++) {
		const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? cur[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
			let v = line[x];
			if (f === 1) v += a;
			else if (f === 2) v += b;
			else if (f === 3) v += (a + b) >> 1;
			else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
			cur[x] = v & 255;
		}
		for (let x = 0; x < stride; x += bpp) seen.add((cur[x] << 16) | (cur[x + 1] << 8) | cur[x + 2]);
		cur.copy(prev);
	}
	return seen.size;
}

async function main() {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' }, null);
	({ sessionId } = await send('Target.attachToTarget', { targetId, flatten: true }, null));
	await send('Runtime.enable');
	await send('Log.enable');
	await send('Network.enable');
	await send('Page.enable');
	const loaded = waitFor('Page.loadEventFired');
	await send('Page.navigate', { url });
	await loaded;
	// BROWSER_CHECK_WAIT_MS: time for a page that draws after its load event
	await new Promise((r) => setTimeout(r, parseInt(process.env.BROWSER_CHECK_WAIT_MS || '0', 10)));
	const metrics = await send('Page.getLayoutMetrics');
	const size = metrics.cssContentSize || metrics.contentSize;
	const shot = await send('Page.captureScreenshot', {
		format: 'png', captureBeyondViewport: true,
		clip: { x: 0, y: 0, width: 1280, height: Math.min(Math.ceil(size.height), 16000), scale: 1 },
	});
	const png = Buffer.from(shot.data, 'base64');
	fs.writeFileSync(outPng, png);
	// BROWSER_CHECK_TILES=H also writes OUT-1.png, OUT-2.png...: the page in
	// slices of H pixels, small enough to look at.
	const tile = parseInt(process.env.BROWSER_CHECK_TILES || '0', 10);
	for (let y = 0, n = 1; tile > 0 && y < size.height; y += tile, n++) {
		const part = await send('Page.captureScreenshot', {
			format: 'png', captureBeyondViewport: true,
			clip: { x: 0, y, width: 1280, height: Math.min(tile, Math.ceil(size.height - y)), scale: 1 },
		});
		fs.writeFileSync(outPng.replace(/\.png$/, '') + '-' + n + '.png', Buffer.from(part.data, 'base64'));
	}
	console.log('console-errors ' + errors.length);
	for (const e of errors) console.log('error: ' + e);
	console.log('console-warnings ' + warnings.length);
	for (const w of warnings) console.log('warning: ' + w);
	for (const l of logs) console.log('console.log: ' + l);
	console.log('requests ' + requests.length);
	for (const r of requests) console.log('request: ' + r);
	console.log('colours ' + countColours(png));
	console.log('height ' + Math.ceil(size.height));
	for (const e of exprs) {
		const r = await send('Runtime.evaluate', { expression: e, returnByValue: true, awaitPromise: true });
		console.log('eval ' + e + ' => ' + JSON.stringify(r.exceptionDetails ? 'exception' : r.result.value));
	}
}

// BROWSER_CHECK_TIMEOUT_MS: how long the whole check may take (a loaded machine starts Chromium slowly)
const timer = setTimeout(() => { console.error('browser-check: timed out'); finish(3); },
	parseInt(process.env.BROWSER_CHECK_TIMEOUT_MS || '60000', 10));
async function finish(code) {
	clearTimeout(timer);
	try { process.kill(-child.pid, 'SIGKILL'); } catch (e) { /* already gone */ }
	await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
	// helpers may still be flushing into the profile for a moment
	for (let i = 0; i < 20; i++) {
		try { fs.rmSync(profile, { recursive: true, force: true }); break; }
		catch (e) { await new Promise((r) => setTimeout(r, 100)); }
	}
	process.exit(code);
}
main().then(() => finish(0), (e) => { console.error('browser-check: ' + e.message); finish(3); });
