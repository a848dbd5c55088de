/*
 * pprof: the reader of pprof's profile.proto (perftools.profiles.Profile,
 * what Go's runtime/pprof, gperftools' pprof and many exporters write;
 * gzip is inflated by source.c before it gets here).
 *
 * The Profile message is never decoded whole: its top-level fields are
 * walked as they arrive (tag, length, bytes) and each submessage (a
 * sample, a location, a function, a mapping, a sample type) is decoded
 * alone with the protobuf-c code generated from src/read/pprof.proto. The
 * tables a sample refers to may come after it, so samples are kept, until
 * the end, aggregated by their list of location ids: memory follows the
 * distinct stacks (their ids and a sum per sample type) and the tables,
 * plus the one top-level field being read (source.c buffers it; over
 * 64 MiB it is refused), never the file.
 *
 * Each distinct stack becomes one folded stack: its locations from the
 * outermost caller to the leaf (pprof lists the leaf first), a location's
 * inlined functions as frames of their own (innermost last), a location
 * without lines as `0x<address>` or, when its mapping names a file,
 * `<file's base name>+0x<offset in the file>`. ';' in a name becomes ':'.
 * One value per sample is read: the sample type named by --event, else the
 * profile's default_sample_type, else the last, as pprof chooses.
 *
 * Errors come back as a struct diag ("file: byte offset N: ..."), the
 * offset counted in the decompressed profile.
 */
#ifndef DIFFFOLD_PPROF_H
#define DIFFFOLD_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

struct pprof_options {
	/* NULL: the default sample type; else a type ("cpu", "alloc_space")
	 * or its index among the profile's sample types ("0"). */
	const char *event;
};

struct pprof_info {
	char type[64]; /* the sample type read ("cpu") */
	char unit[64]; /* its unit ("nanoseconds"), the type for "count" */
	uint64_t samples; /* Sample messages read */
	/* The samples the values read hold, by a sample type of unit count
	 * ("samples") beside the one read, and the sum of the values read on
	 * the same stacks: 0 and 0 when the profile has no such type. */
	double sample_count, sample_value;
};

/* The reader as the table runs it (readers.h). */
readers_read_fn pprof_read;

#endif
