/* placeholder: being written (issue 4) */
#include "png.h"

#include <stdio.h>

bool
png_write(struct out *o, const struct layout *l, struct diag *err)
{
	(void)o;
	(void)l;
	snprintf(err->msg, sizeof(err->msg), "PNG output is not available yet");
	return false;
}

bool
png_write_pdf(struct out *o, const struct layout *l, struct diag *err)
{
	return png_write(o, l, err);
}
