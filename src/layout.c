/* placeholder: being written (issue 3) */
#include "layout.h"

struct layout *
layout_create(const struct tree *t, const struct options *o)
{
	(void)t;
	(void)o;
	return NULL;
}

void
layout_destroy(struct layout *l)
{
	(void)l;
}
