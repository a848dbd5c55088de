// search.js: highlighting the frames whose name matches a pattern.
//
// Also "Matched: N%" and the search a link brings, which waits for a
// click unless it is a plain word. Defines for the others: search,
// clearSearch, showMatched, linkSearch, pending. Uses: frames.js's
// arrays, zoom.js (term, caseSensitive, matched shares, display),
// hash.js (writeHash), pin.js (pinControls).
// One piece of the SVG's script; frames.js says how the pieces join.

	function restoreFill(i) {
		if (fills[i] === null) {
			rects[i].removeAttribute('fill');
		} else {
			rects[i].setAttribute('fill', fills[i]);
		}
	}

	function clearSearch(keepHash) {
		dropPending();
		for (var i = 0; i < n; i++) {
			if (matches[i]) {
				matches[i] = 0;
				restoreFill(i);
				els[i].classList.remove('match');
			}
		}
		term = null;
		matchedPercent = matchedZoomPercent = null;
		display(matched, false);
		if (!keepHash) {
			writeHash();
		}
	}

	// Highlights frames whose name matches; the matched share counts the
	// head samples of a match once, not again for matches nested inside it.
	function search(re, cs, keepHash) {
		if (re === null || re === undefined || re === '') {
			clearSearch(keepHash);
			return true;
		}
		var rx;
		try {
			rx = new RegExp(String(re), cs ? '' : 'i');
		} catch (e) {
			return false;
		}
		dropPending();
		caseSensitive = !!cs;
		if (caseToggle) {
			caseToggle.textContent = caseSensitive ? 'Cc' : 'ic';
		}
		var sum = 0, covered = 0;
		for (var i = 0; i < n; i++) {
			var hit = rx.test(nameOf(i)) ? 1 : 0;
			if (hit && i >= covered) {
				sum += head[i];
				covered = end[i];
			}
			if (hit !== matches[i]) {
				matches[i] = hit;
				if (hit) {
					rects[i].setAttribute('fill', searchFill);
				} else {
					restoreFill(i);
				}
				els[i].classList.toggle('match', !!hit);
			}
		}
		term = String(re);
		matchedPercent = head[0] > 0 ? Math.round(sum / head[0] * 1000) / 10 : 0;
		showMatched();
		if (!keepHash) {
			writeHash();
		}
		return true;
	}

	// The share of the zoomed frame's head samples in matching frames (all
	// of them when the frame or an ancestor matches), each counted once.
	function zoomedShare(z) {
		for (var a = z; a >= 0; a = parent[a]) {
			if (matches[a]) {
				return 100;
			}
		}
		var sum = 0;
		for (var i = z + 1; i < end[z]; i++) {
			if (matches[i]) {
				sum += head[i];
				i = end[i] - 1;
			}
		}
		return head[z] > 0 ? Math.round(sum / head[z] * 1000) / 10 : 0;
	}

	// "Matched: N%" of the whole graph; zoomed, of the zoomed frame too,
	// since the frames in view are then a part of the whole.
	function showMatched() {
		matchedZoomPercent = term !== null && zoomed !== null ? zoomedShare(zoomed) : null;
		if (!matched || term === null) {
			return;
		}
		matched.textContent = matchedZoomPercent === null
			? 'Matched: ' + matchedPercent.toFixed(1) + '%'
			: 'Matched: ' + matchedZoomPercent.toFixed(1) + '% of the zoomed frame, ' +
			  matchedPercent.toFixed(1) + '% of all';
		display(matched, true);
	}

	// A search that arrives with a link (the URL hash) is a pattern someone
	// else wrote. A regular expression such as ^([\w:_-]+)*#$ backtracks for
	// minutes on a long name and would hang the page as it opens, so a link's
	// pattern waits for a click on "Search from link: ...". A plain word, with
	// no regular expression syntax, cannot backtrack and runs at once.
	var pending = null, linkPrompt = null;

	function isPlain(re) {
		return !/[\\^$.|?*+()[\]{}]/.test(re);
	}

	function showPending(re, cs) {
		pending = {re: re, cs: cs};
		if (!linkPrompt && matched) {
			linkPrompt = matched.cloneNode(false);
			linkPrompt.setAttribute('class', 'link-search');
			linkPrompt.setAttribute('style', 'cursor: pointer');
			matched.parentNode.insertBefore(linkPrompt, matched.nextSibling);
		}
		if (linkPrompt) {
			var shown = re.length > 40 ? re.slice(0, 39) + '\u2026' : re;
			linkPrompt.textContent = 'Search from link: ' + shown + ' \u2014 click to run';
			display(linkPrompt, true);
			pinControls();
		}
	}

	function dropPending() {
		pending = null;
		display(linkPrompt, false);
	}

	function linkSearch(re, cs) {
		try {
			new RegExp(re); // compiling never backtracks; an invalid one is ignored
		} catch (e) {
			return;
		}
		if (re === '' || isPlain(re)) {
			search(re, cs, true);
		} else {
			clearSearch(true);
			showPending(re, cs);
		}
	}
