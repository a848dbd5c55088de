/* placeholder: being written (issue 3) */
#include "color.h"
