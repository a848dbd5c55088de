// history.js: Back, Forward and links followed in the tab.
//
// popstate and hashchange: an entry's view and zoom apply, a linked
// search as on a fresh load. Uses hash.js (hashState, readHash,
// writeHash), zoom.js, view.js and search.js (linkSearch).
// One piece of the SVG's script; frames.js says how the pieces join.

	// The search a hash carries (undecoded), or null.
	function hashSearch(h) {
		var s = /(?:^|&)search=([^&]*)(?:&|$)/.exec(h.slice(1 + prefix.length));
		return s ? s[1] : null;
	}

	// Back and Forward: the entry's zoom applies; the search stays as it is
	// now, and the entry is rewritten to say so. A link opened in a tab
	// that shows the file arrives this way too (before its hashchange), as
	// an entry without this script's mark: a search it brings that differs
	// from the one shown applies as on a fresh load.
	window.addEventListener('popstate', function (e) {
		var h = location.hash, m = null, v = null;
		if (h.length > 1 && (!prefix || h.indexOf('#' + prefix) !== 0)) {
			return; // another graph's entry on a shared page
		}
		if (h.length > 1) {
			m = /(?:^|&)zoom=([0-9]+)(?:&|$)/.exec(h.slice(1 + prefix.length));
			v = /(?:^|&)view=([a-z]+)(?:&|$)/.exec(h.slice(1 + prefix.length));
		}
		var own = e.state && e.state.difffold === prefix;
		var linked = h.length > 1 && !own ? hashSearch(h) : null;
		var shown = hashState();
		shown = shown.length > 1 ? hashSearch(shown) : null;
		setView(v ? v[1] : widths, true);
		if (m) {
			zoom(parseInt(m[1], 10), true);
		} else {
			reset(true);
		}
		if (linked !== null && linked !== shown) {
			try {
				linkSearch(decodeURIComponent(linked), /(?:^|&)case=1(?:&|$)/.test(h.slice(1 + prefix.length)));
			} catch (e) {
				// a malformed hash is ignored
			}
		}
		writeHash(false);
	});
	window.addEventListener('hashchange', function () {
		if (location.hash !== hashState()) {
			readHash();
		}
	});
