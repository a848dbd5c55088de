// input.js: what the pointer and the keys do.
//
// The search field typed into in the SVG, hover, the roving keyboard
// focus on frames (arrows move, Enter zooms), clicks on frames and
// buttons, and the page-wide keys (Ctrl+F, F3, Escape). The listeners
// call the other pieces' actions: zoom.js (zoom, reset), view.js
// (setView), search.js (search, clearSearch), details.js (describe,
// showDetails), labels.js (inkFor), pin.js (pinControls). Defines for
// the others: typed, the pattern being typed (null while the field is
// closed).
// One piece of the SVG's script; frames.js says how the pieces join.

	function frameOf(target) {
		var g = target && target.closest ? target.closest('g.frame') : null;
		return g && index.has(g) ? index.get(g) : -1;
	}

	// The search field: drawn in the SVG on the details line's place (no
	// window.prompt, no foreignObject), typed into while it is open. Enter
	// runs the pattern, Escape clears the search and closes the field.
	var field = null, typed = null;

	function drawField(note) {
		if (!field && details) {
			field = details.cloneNode(false);
			field.setAttribute('class', 'search-field');
			field.setAttribute('role', 'searchbox');
			field.removeAttribute('aria-live');
			field.removeAttribute('textLength');
			details.parentNode.insertBefore(field, details.nextSibling);
		}
		if (field) {
			field.textContent = 'Search (regular expression' + (caseSensitive ? ', case-sensitive' : '') +
			                    '): ' + typed + '\u258f' + (note || '');
			field.setAttribute('aria-label', 'Search frames: ' + typed);
			display(field, true);
		}
		display(details, false);
		pinControls();
		display(legend, false);
	}

	function openSearch() {
		typed = term || '';
		drawField('');
	}

	function closeField() {
		typed = null;
		display(field, false);
		display(details, true);
		display(legend, !details || !details.textContent);
	}

	// Keys while the field is open; true when the key was the field's.
	function fieldKey(e) {
		if (typed === null || e.ctrlKey || e.metaKey || e.altKey) {
			return false;
		}
		var key = e.key;
		if (key === 'Enter') {
			if (search(typed, caseSensitive)) {
				closeField();
			} else {
				drawField(' \u2014 not a valid regular expression');
			}
		} else if (key === 'Escape') {
			closeField();
			clearSearch();
		} else if (key === 'Backspace') {
			typed = Array.from(typed).slice(0, -1).join('');
			drawField('');
		} else if (key.length === 1 || Array.from(key).length === 1) {
			typed += key;
			drawField('');
		} else {
			return false;
		}
		return true;
	}

	var hovering = false;
	// The outline of the hovered or focused frame takes the label's ink of
	// its current fill (black on light frames, white on dark ones), so it
	// shows in both themes and on search highlights.
	function markInk(i) {
		if (i >= 0) {
			var m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(getComputedStyle(rects[i]).fill || '');
			var hex = m ? '#' + [m[1], m[2], m[3]].map(function (v) {
				return ('0' + Number(v).toString(16)).slice(-2);
			}).join('') : null;
			els[i].style.setProperty('--difffold-ink', inkFor(hex) || '#000000');
		}
	}

	svg.addEventListener('mouseover', function (e) {
		hovering = true;
		var i = frameOf(e.target);
		markInk(i);
		showDetails(i);
	});

	// Keyboard: one frame at a time is in the tab order (roving focus);
	// the arrows move as the picture looks (Up goes away from the root in
	// a flame graph, towards it in an icicle graph), Enter zooms.
	var inverted = svg.getAttribute('data-inverted') === '1';
	var focused = 0;
	if (group) {
		group.setAttribute('role', 'group');
		group.setAttribute('aria-label', 'Frames: arrow keys move, Enter zooms, Escape resets');
	}
	if (details) {
		details.setAttribute('role', 'status');
		details.setAttribute('aria-live', 'polite');
	}
	els[0].setAttribute('tabindex', '0');
	els[0].setAttribute('role', 'button');
	// Chrome makes a document's root <svg> a tab stop of its own (and a
	// click focuses it, boxed): the first Tab belongs to the frames.
	if (!svg.hasAttribute('tabindex')) {
		svg.setAttribute('tabindex', '-1');
	}

	function visible(i) {
		return !hidden[i] && (zoomed === null || (i >= zoomed && i < end[zoomed]) || end[i] > zoomed && i < zoomed);
	}

	function focusFrame(i) {
		if (i < 0 || i >= n) {
			return;
		}
		els[focused].setAttribute('tabindex', '-1');
		focused = i;
		var g = els[i];
		g.setAttribute('tabindex', '0');
		g.setAttribute('role', 'button');
		g.setAttribute('aria-label', nameOf(i) + describe(i));
		markInk(i);
		if (document.activeElement !== g) {
			g.focus();
		}
		showDetails(i);
	}

	// The next visible sibling of i in direction dir (+1 right, -1 left).
	function sibling(i, dir) {
		var p = parent[i];
		if (p < 0) {
			return -1;
		}
		var kids = [];
		for (var c = p + 1; c < end[p]; c = end[c]) {
			kids.push(c);
		}
		for (var k = kids.indexOf(i) + dir; k >= 0 && k < kids.length; k += dir) {
			if (visible(kids[k])) {
				return kids[k];
			}
		}
		return -1;
	}

	function firstChild(i) {
		for (var c = i + 1; c < end[i]; c = end[c]) {
			if (visible(c)) {
				return c;
			}
		}
		return -1;
	}

	function frameKey(e) {
		var i = frameOf(document.activeElement);
		if (i < 0 || typed !== null) {
			return false;
		}
		var key = e.key, j = -1;
		if (key === 'ArrowLeft' || key === 'ArrowRight') {
			j = sibling(i, key === 'ArrowLeft' ? -1 : 1);
		} else if (key === 'ArrowUp' || key === 'ArrowDown') {
			j = (key === 'ArrowUp') !== inverted ? firstChild(i) : parent[i];
		} else if (key === 'Enter' || key === ' ') {
			if (i === 0) {
				reset();
			} else {
				zoom(i);
			}
			focusFrame(i);
			return true;
		} else {
			return false;
		}
		focusFrame(j);
		return true;
	}

	svg.addEventListener('focusin', function (e) {
		var i = frameOf(e.target);
		if (i >= 0) {
			focusFrame(i);
		}
	});
	svg.addEventListener('keydown', function (e) {
		if (frameKey(e)) {
			e.preventDefault();
		}
	});
	svg.addEventListener('mouseleave', function () {
		hovering = false;
		showDetails(-1);
	});
	svg.addEventListener('click', function (e) {
		var t = e.target;
		if (!t || !t.closest) {
			return;
		}
		if (t.closest('.reset-zoom')) {
			reset();
		} else if (t.closest('.view-toggle')) {
			setView(t.closest('.view-toggle').getAttribute('data-view'));
		} else if (t.closest('.search-button')) {
			openSearch();
		} else if (t.closest('.link-search')) {
			if (pending) {
				search(pending.re, pending.cs);
			}
		} else if (t.closest('.case-toggle')) {
			caseSensitive = !caseSensitive;
			caseToggle.textContent = caseSensitive ? 'Cc' : 'ic';
			if (term !== null) {
				search(term, caseSensitive);
			}
		} else {
			var i = frameOf(t);
			if (i === 0) {
				reset();
			} else if (i > 0) {
				zoom(i);
			}
		}
	});
	// Keys go to this graph when it is the page, or when the pointer is on it.
	document.addEventListener('keydown', function (e) {
		if (typed === null && document.documentElement !== svg && !hovering &&
		    !svg.contains(document.activeElement)) {
			return;
		}
		if (fieldKey(e)) {
			e.preventDefault();
			e.stopImmediatePropagation();
			return;
		}
		var key = e.key;
		if (key === 'F3' || ((e.ctrlKey || e.metaKey) && (key === 'f' || key === 'F'))) {
			e.preventDefault();
			openSearch();
		} else if (key === 'Escape') {
			clearSearch(true);
			reset();
		}
	});
