// pin.js: keeps the controls in sight on a graph taller than the window.
//
// Defines for the others: pinControls, which the search field and a
// link's prompt call when they appear. Uses frames.js (details,
// resetButton, num) and zoom.js (change, display).
// One piece of the SVG's script; frames.js says how the pieces join.

	// The controls stay in the visible part of the window whatever the
	// scroll: on a graph taller than the window the buttons' row, then the
	// details line (with the search field, Matched: and a link's prompt)
	// slide down to the window's top once it passes them, over a band of
	// the background. Nothing moves while they are in sight, so the
	// picture is the one written.
	var controls = details ? details.parentNode : null;
	var backdrop = svg.querySelector('rect.background');
	var band = null;
	var em = num('font-size') || 12;

	function pinControls() {
		var H = num('height');
		var r = svg.getBoundingClientRect();
		if (!controls || !(r.height > 0) || !(H > 0)) {
			return;
		}
		var top = Math.min(Math.max(0, -r.top / (r.height / H)), Math.max(0, H - 4 * em));
		var lh = 1.6 * em, detailsY = parseFloat(details.getAttribute('y'));
		var buttonsY = resetButton ? parseFloat(resetButton.getAttribute('y')) : detailsY;
		var dy1 = buttonsY - em < top ? top + 1.2 * em - buttonsY : 0;
		var below = top + (dy1 > 0 ? lh : 0);
		var dy2 = detailsY - em < below ? below + 1.2 * em - detailsY : 0;
		Array.prototype.forEach.call(controls.children, function (el) {
			if (el !== band) {
				var dy = parseFloat(el.getAttribute('y')) === detailsY ? dy2 : dy1;
				if (dy > 0) {
					change(el, 'transform', 'translate(0 ' + Math.round(dy * 10) / 10 + ')');
				} else {
					el.removeAttribute('transform');
				}
			}
		});
		if (!band && (dy1 > 0 || dy2 > 0)) {
			band = document.createElementNS(svg.namespaceURI, 'rect');
			band.setAttribute('class', 'pinned-band');
			band.setAttribute('x', '0');
			band.setAttribute('width', String(num('width')));
			band.setAttribute('fill-opacity', '0.95');
			controls.insertBefore(band, controls.firstChild);
			svg.appendChild(controls); // painted over the frames from now on
		}
		if (band) {
			band.setAttribute('y', String(Math.round(top * 10) / 10));
			band.setAttribute('height', String(Math.round(((dy1 > 0) + (dy2 > 0)) * lh * 10 + 4 * em) / 10));
			band.setAttribute('fill', backdrop ? getComputedStyle(backdrop).fill : '#ffffff');
			display(band, dy1 > 0 || dy2 > 0);
		}
	}
