// zoom.js: zoom into a frame and back (reset).
//
// Also the writes that move or hide one frame (place, show), display()
// for any element, and the state the interactive pieces share: view,
// zoomed, term, caseSensitive, matchedPercent, matchedZoomPercent.
// Defines for the others: zoom, reset, change, display. Uses:
// frames.js's arrays and geometry, labels.js (fit, suffixOf, setLabel,
// round1), search.js (showMatched), hash.js (writeHash).
// One piece of the SVG's script; frames.js says how the pieces join.

	function place(i, x, w) {
		if (cx[i] !== x) {
			var sx = round1(x);
			rects[i].setAttribute('x', sx);
			if (placed[i]) {
				texts[i].setAttribute('x', round1(x + pad));
			}
			cx[i] = x;
		}
		if (cwid[i] !== w) {
			rects[i].setAttribute('width', round1(w));
			cwid[i] = w;
		}
	}

	function show(i, on) {
		if (hidden[i] === (on ? 0 : 1)) {
			return;
		}
		hidden[i] = on ? 0 : 1;
		if (on) {
			els[i].removeAttribute('display');
			els[i].classList.remove('hide');
		} else {
			els[i].setAttribute('display', 'none');
			els[i].classList.add('hide');
		}
	}

	function display(el, on) {
		if (!el) {
			return;
		}
		if (on) {
			el.removeAttribute('display');
		} else {
			el.setAttribute('display', 'none');
		}
	}

	var view = widths;
	var zoomed = null, term = null, caseSensitive = false, matchedPercent = null;
	var matchedZoomPercent = null;

	// Zoom moves the frames with one transform on their group and clips the
	// group to the graph: frames outside the zoomed column leave the picture
	// without being touched. Rewriting the geometry or display of every
	// frame made chromium restyle 50,000 elements (about a second); now only
	// the frames that get a label, or whose written coordinates are not
	// precise enough at this scale, are written, in screen coordinates under
	// a transform that undoes the group's.
	var MAX_SCALE = 1000; // past it, floats in the composed matrix drift
	var EXACT_SCALE = 4; // below it, 0.1 px of written rounding stays under 0.4 px
	var NS = 'http://www.w3.org/2000/svg';
	// The transform a frame drawn in screen coordinates carries; null when
	// the frame is as written.
	var undo = new Array(n).fill(null);
	var clipRect = null, clipId = null;

	function clipTo(x, w) {
		if (!clipRect) {
			var cp = document.createElementNS(NS, 'clipPath');
			clipId = prefix + 'clip';
			for (var k = 2; document.getElementById(clipId); k++) {
				clipId = prefix + 'clip' + k;
			}
			cp.setAttribute('id', clipId);
			clipRect = document.createElementNS(NS, 'rect');
			clipRect.setAttribute('y', '0');
			clipRect.setAttribute('height', String(num('height') || 1e6));
			cp.appendChild(clipRect);
			group.parentNode.insertBefore(cp, group);
		}
		change(clipRect, 'x', String(x));
		change(clipRect, 'width', String(w));
		change(group, 'clip-path', 'url(#' + clipId + ')');
	}

	// Writes an attribute only when its value changes: chromium repaints
	// the graph on any write.
	function change(el, name, v) {
		if (el.getAttribute(name) !== v) {
			el.setAttribute(name, v);
		}
	}

	// Back to the view's unzoomed geometry and label: in the written view,
	// those the file was written with.
	function asWritten(i) {
		if (undo[i] !== null) {
			undo[i] = null;
			els[i].removeAttribute('transform');
		}
		// Both write only what changes (a toggle back to the written view
		// must undo what the other view placed).
		place(i, vx[i], vw[i]);
		if (view !== widths && !vhide[i]) {
			setLabel(i, labelAt(i, vw[i]));
		} else if (labels[i] !== null) {
			setLabel(i, orig[i]);
		}
		show(i, !vhide[i]);
	}

	function inScreen(i, t, x, w, label) {
		if (undo[i] !== t) {
			els[i].setAttribute('transform', t);
			undo[i] = t;
		}
		place(i, x, w);
		setLabel(i, label);
		show(i, true);
	}

	// The label a frame gets at width w; reads its name only when it may fit.
	function labelAt(i, w) {
		return (w - 2 * pad) / cw >= 3 ? fit(nameOf(i), w, suffixOf(i)) : '';
	}

	function zoom(z, keepHash) {
		z = z === null || z === undefined ? 0 : Number(z);
		if (!(z >= 0 && z < n) || Math.floor(z) !== z) {
			return false;
		}
		if (z === 0 || !group) {
			return reset(keepHash);
		}
		if (!(basis[z] > 0)) {
			return false; // not in this view: nothing to zoom into
		}
		var onPath = new Uint8Array(n);
		for (var a = parent[z]; a >= 0; a = parent[a]) {
			onPath[a] = 1;
		}
		var s = basis[z] > 0 ? gw / basis[z] : 0;
		var pps = basis[0] > 0 ? gw / basis[0] : 0;
		var k = pps > 0 ? s / pps : 1;
		var kk = Math.min(k, MAX_SCALE);
		// The group maps x to kk * x + e, the middle of z onto the middle
		// of the graph; with kk = k, z's column fills the graph exactly.
		var mid = gx + (start[z] + basis[z] / 2) * pps;
		var e = gx + gw / 2 - kk * mid;
		var exact = k > EXACT_SCALE;
		var t = 'matrix(' + 1 / kk + ' 0 0 1 ' + -e / kk + ' 0)';
		var stop = end[z];
		for (var i = 0; i < n; i++) {
			if (vhide[i] && !onPath[i] && i !== z) {
				show(i, false);
			} else if (i >= z && i < stop) {
				var w = basis[i] * s;
				var label = labelAt(i, w);
				if (label || exact) {
					inScreen(i, t, gx + (start[i] - start[z]) * s, w, label);
				} else {
					asWritten(i);
				}
			} else if (onPath[i]) {
				inScreen(i, t, gx, gw, labelAt(i, gw));
			} else {
				// Moved off the graph by the group's transform, or hidden
				// here when rounding (or a capped scale) leaves it inside.
				var left = kk * vx[i] + e, right = kk * (vx[i] + vw[i]) + e;
				if (right > gx + 0.05 && left < gx + gw - 0.05) {
					show(i, false);
				} else {
					asWritten(i);
				}
			}
		}
		change(group, 'transform', 'matrix(' + kk + ' 0 0 1 ' + e + ' 0)');
		clipTo((gx - e) / kk, gw / kk);
		zoomed = z;
		display(resetButton, true);
		showMatched();
		display(markers, false);
		display(capped, false);
		if (!keepHash) {
			writeHash(true);
		}
		return true;
	}

	function reset(keepHash) {
		for (var i = 0; i < n; i++) {
			asWritten(i);
		}
		if (group) {
			group.removeAttribute('transform');
			group.removeAttribute('clip-path');
		}
		zoomed = null;
		display(resetButton, false);
		showMatched();
		display(markers, view === widths);
		display(capped, view === widths);
		if (!keepHash) {
			writeHash(true);
		}
		return true;
	}
