#include "settings.h"

void
settings_draw(const struct options *o, struct draw_options *d)
{
	*d = (struct draw_options){
	        .widths = o->widths,
	        .min_width = o->min_width,
	        .min_width_percent = o->min_width_percent,
	        .inverted = o->inverted,
	        .width = o->width,
	        .frame_height = o->frame_height,
	        .font_size = o->font_size,
	        .font_family = o->font_family,
	        .title = o->title,
	        .subtitle = o->subtitle,
	        .countname = o->countname,
	        .notes = o->notes,
	        .input_note = o->input_note,
	        .base_label = o->base_label,
	        .head_label = o->head_label,
	        .truncate = o->truncate,
	        .color_by = o->color_by,
	        .palette = o->palette,
	        .theme = o->theme,
	        .scale = o->scale,
	        .no_javascript = o->no_javascript,
	        .max_depth = (unsigned)o->max_depth,
	        .compact = o->compact_header,
	        .transform = o->tree.transform,
	};
}
