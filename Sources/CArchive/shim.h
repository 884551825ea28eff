#ifndef PODDOC_CARCHIVE_SHIM_H
#define PODDOC_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
