/*
 * outdir.h - the folder a view writes its files into (outdir.c: the
 * charts of --plot, the page of --html): made with its parents, and
 * never a result folder or inside one.  Below it: rload.
 */
#ifndef VB_OUTDIR_H
#define VB_OUTDIR_H

#include "rload.h"

/*
 * Is @dir, or would it be once made, a result folder of @s or inside
 * one?  Asked before the folder is made, so a refusal leaves nothing.
 */
int outdir_inside(const struct rl_set *s, const char *dir);

#endif
