#include "settings.h"

void
settings_input(const struct options *o, struct input_options *in)
{
	*in = (struct input_options){
	        .base = o->base,
	        .head = o->head,
	        .base_count = o->base_count,
	        .head_count = o->head_count,
	        .single = o->single,
	        .input_forced = o->input_forced,
	        .input_format = o->input_format,
	        .side_forced = {o->side_forced[0], o->side_forced[1]},
	        .side_format = {o->side_format[0], o->side_format[1]},
	        .event = o->event,
	        .snapshot = o->snapshot,
	        .weight_period = o->weight_period,
	        .objects = o->objects,
	        .perf_stackcollapse = o->perf_stackcollapse,
	        .strict = o->strict,
	        .comparable = o->comparable,
	        .runs = o->runs,
	        .significance = o->significance,
	        .exact_names = o->exact_names,
	        .no_match = o->no_match,
	        .tree = &o->tree,
	};
}

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
	        .transform = o->tree.transform,
	};
}

void
settings_report(const struct options *o, struct report_options *r)
{
	*r = (struct report_options){
	        .base_label = o->base_label,
	        .head_label = o->head_label,
	        .countname = o->countname,
	        .input_note = o->input_note,
	        .image_url = o->image_url,
	        .top = o->top,
	        .transform = o->tree.transform,
	        .base = o->base,
	        .head = o->head,
	        .base_count = o->base_count,
	        .head_count = o->head_count,
	        .fail_on_regression = o->fail_on_regression,
	        .fail_on_function = o->fail_on_function,
	        .fail_on_new = o->fail_on_new,
	        .gate_min_share = o->gate_min_share,
	        .fail_on = o->fail_on,
	        .fail_on_count = o->fail_on_count,
	        .alloc_patterns = o->alloc_patterns,
	        .io_patterns = o->io_patterns,
	        .alloc_pattern_count = o->alloc_pattern_count,
	        .io_pattern_count = o->io_pattern_count,
	        .json_layout = o->json_layout,
	};
}
