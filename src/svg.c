/* placeholder: being written (issue 3) */
#include "svg.h"

void
svg_write(struct out *o, const struct layout *l)
{
	(void)o;
	(void)l;
}
