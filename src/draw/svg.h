/*
 * svg: the interactive SVG backend. Draws a layout (boxes, caption, legend)
 * with presentation attributes only, so the picture survives sanitisers
 * and <img> embedding; adds the embedded CSS and JavaScript (svg.css and
 * the scripts in js/) for hover, zoom and search in a browser. Frame names appear
 * only escaped (escape_xml) in element text or attributes. Output is deterministic.
 */
#ifndef DIFFFOLD_SVG_H
#define DIFFFOLD_SVG_H

#include "layout.h"
#include "output.h"

void svg_write(struct out *o, const struct layout *l);

#endif
