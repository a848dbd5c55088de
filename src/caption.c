/* placeholder: being written (issue 3) */
#include "caption.h"
