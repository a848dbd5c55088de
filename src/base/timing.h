/*
 * timing: DIFFFOLD_TIMING set in the environment prints the time of each
 * stage of a run to stderr as one line, for bench/:
 *   difffold: timing: read 12.3 ms, tree_finish 4.5 ms, outputs 6.7 ms
 * A measurement knob, not a feature: one run at a time, from one thread.
 */
#ifndef DIFFFOLD_TIMING_H
#define DIFFFOLD_TIMING_H

/* Starts the clock for the first stage (and forgets earlier stages). */
void timing_start(void);
/* Ends the current stage under `name` (a literal) and starts the next. */
void timing_stage(const char *name);
/* Prints the stages so far when DIFFFOLD_TIMING is set; else nothing. */
void timing_print(void);

#endif
