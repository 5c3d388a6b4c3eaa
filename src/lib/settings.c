/*
 * settings.c - the table of settings (see settings.h).
 */
#include <stddef.h>

#include "settings.h"

const struct vb_setting vb_settings[] = {
#define X(key, path, knob, show) { key, path, knob, show },
	MM_SETTINGS(X)
#undef X
	{ NULL, NULL, NULL, 0 },
};
