/*
 * parentwatch.h - a program that make runs stops when make is stopped.
 *
 * make's recipes exec the program (vmrun, vmboots, vmreport), so that
 * it is make's own child, and export VB_FROM_MAKE=1.  GNU make passes a
 * SIGTERM on its pid to its children, but on SIGINT or SIGHUP to its
 * own pid (not to its process group, as a terminal's Ctrl-C is) it
 * only waits for them, with that signal blocked.  vb_parent_watch(),
 * called early in main, then
 *
 *  - asks the kernel for SIGTERM when make dies (PR_SET_PDEATHSIG), and
 *    raises SIGTERM at once when make is already gone;
 *  - when the parent is make, starts a thread (every signal blocked)
 *    that reads make's /proc/<pid>/status every 100 ms and, when its
 *    SigBlk holds SIGINT, SIGHUP or SIGTERM in two reads in a row,
 *    sends that signal to the program, once: the program's own handler
 *    stops the run and puts everything back, as on Ctrl-C.
 *
 * VB_FROM_MAKE is removed from the environment, so that the programs
 * the program runs do not watch it.  The thread only makes system
 * calls (no lock, no allocation), so a fork() beside it is safe.
 */
#ifndef VB_PARENTWATCH_H
#define VB_PARENTWATCH_H

/*
 * Without VB_FROM_MAKE=1: nothing, 0.  Else 1 when the thread runs, 0
 * when the parent is not make (the death signal alone), -1 (errno)
 * when the thread or the death signal cannot be set.
 */
int vb_parent_watch(void);

/*
 * The signal a SigBlk mask @blk shows make handling: SIGTERM, SIGINT
 * or SIGHUP (in that order), else 0.
 */
int vb_parent_watch_sig(unsigned long long blk);

#endif
