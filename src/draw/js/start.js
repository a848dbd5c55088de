// start.js: starts the script once every piece is defined, and ends it.
//
// Shows the controls, draws the view buttons, applies the URL hash,
// listens to scroll and resize, and gives pages and tests
// window.difffold (zoom, reset, search, clearSearch, view, state). Closes
// the function frames.js opens.
// One piece of the SVG's script; frames.js says how the pieces join.

	display(searchButton, true);
	display(caseToggle, true);
	makeViewButtons();
	readHash();
	pinControls();
	window.addEventListener('scroll', pinControls, {passive: true, capture: true});
	window.addEventListener('resize', pinControls, {passive: true});

	window.difffold = {
		zoom: function (i) {
			return zoom(i);
		},
		reset: function () {
			return reset();
		},
		search: function (re, cs) {
			return search(re, cs);
		},
		clearSearch: function () {
			clearSearch();
		},
		view: function (v) {
			return setView(v);
		},
		state: function () {
			return {zoom: zoomed, view: view, search: term, matchedPercent: matchedPercent,
			        matchedZoomPercent: matchedZoomPercent, linkSearch: pending ? pending.re : null};
		}
	};
})();
