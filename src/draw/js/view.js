// view.js: the head / base / union view toggle of a differential graph.
//
// Lays every frame out again under the chosen basis, renames the
// header's "widths:" to the view shown and draws the three buttons.
// Defines for the others: setView, makeViewButtons. Uses: frames.js's
// counts and geometry, zoom.js (view, zoomed, zoom, reset), hash.js
// (writeHash).
// One piece of the SVG's script; frames.js says how the pieces join.

	// The view toggle: every frame re-laid out from its counts under the
	// chosen basis. Widths in samples; a frame starts where the frames
	// before it among its siblings end (frames pruned in every basis are
	// not in the file, so their share is left at the parent's right end).
	// The written basis takes back the file's own geometry exactly.
	var VIEWS = ['head', 'base', 'union'];
	var viewButtons = [];

	function layoutView(v) {
		var i;
		if (v === widths) {
			start.set(writtenStart);
			for (i = 0; i < n; i++) {
				basis[i] = basisOf(base[i], head[i]);
				vx[i] = ox[i];
				vw[i] = ow[i];
				vhide[i] = fileHidden[i];
			}
			return;
		}
		var cursor = new Float64Array(n);
		for (i = 0; i < n; i++) {
			basis[i] = basisOf(base[i], head[i], v);
		}
		var pps = basis[0] > 0 ? gw / basis[0] : 0;
		start[0] = 0;
		cursor[0] = 0;
		for (i = 1; i < n; i++) {
			var p = parent[i];
			start[i] = cursor[p];
			cursor[p] += basis[i];
			cursor[i] = start[i];
		}
		for (i = 0; i < n; i++) {
			vx[i] = gx + start[i] * pps;
			vw[i] = basis[i] * pps;
			vhide[i] = basis[i] > 0 ? 0 : 1;
		}
	}

	function setView(v, keepHash) {
		if (!differential || VIEWS.indexOf(v) < 0) {
			return false;
		}
		if (v !== view) {
			view = v;
			layoutView(v);
			if (zoomed !== null) {
				zoom(zoomed, true);
			} else {
				reset(true);
			}
			markView();
			if (!keepHash) {
				writeHash(true);
			}
		}
		return true;
	}

	// The header's "widths: head (...)" says what the written view draws;
	// another view rewrites it to that view's name, without the written
	// view's note in parentheses (which may wrap onto the next lines). Only
	// at a line's start or after " · ", where the caption puts it, never
	// inside a title or a frame name.
	var headerLines = Array.prototype.slice.call(svg.querySelectorAll('g.header > text'));
	var headerText = headerLines.map(function (t) {
		return t.textContent;
	});

	function markHeader() {
		var at = -1, m = null;
		for (var k = 0; k < headerText.length && at < 0; k++) {
			m = /(^| \u00b7 )widths: (head|base|union)( \()?/.exec(headerText[k]);
			at = m ? k : -1;
		}
		if (at < 0) {
			return;
		}
		headerLines.forEach(function (t, k) {
			t.textContent = headerText[k];
		});
		if (view === widths) {
			return;
		}
		var line = headerText[at];
		var after = line.slice(m.index + m[0].length);
		if (m[3]) {
			var close = after.indexOf(')');
			for (var j = at + 1; close < 0 && j < headerText.length; j++) {
				close = headerText[j].indexOf(')');
				headerLines[j].textContent = close < 0 ? '' : headerText[j].slice(close + 1).replace(/^ \u00b7 /, '');
			}
			after = close < 0 || j > at + 1 ? '' : after.slice(close + 1);
		}
		headerLines[at].textContent = line.slice(0, m.index + m[1].length) + 'widths: ' + view + ' (view)' + after;
	}

	function markView() {
		markHeader();
		viewButtons.forEach(function (b) {
			var on = b.getAttribute('data-view') === view;
			b.setAttribute('font-weight', on ? 'bold' : 'normal');
			b.setAttribute('text-decoration', on ? 'underline' : 'none');
			b.setAttribute('aria-pressed', on ? 'true' : 'false');
		});
	}

	// Three text buttons left of Search, made like it (font, size, baseline).
	function makeViewButtons() {
		if (!differential || !searchButton) {
			return;
		}
		var right = parseFloat(searchButton.getAttribute('x')) - 8 * cw;
		for (var k = VIEWS.length - 1; k >= 0; k--) {
			var b = searchButton.cloneNode(false);
			b.setAttribute('class', 'view-toggle');
			b.setAttribute('data-view', VIEWS[k]);
			b.setAttribute('role', 'button');
			b.setAttribute('x', String(Math.round(right * 10) / 10));
			b.removeAttribute('display');
			b.textContent = VIEWS[k];
			searchButton.parentNode.insertBefore(b, searchButton);
			viewButtons.push(b);
			right -= (VIEWS[k].length + 2) * cw;
		}
		markView();
	}
