// libedit (BSD licence), through its readline-compatible interface: line editing and
// history for the interactive shell on a terminal.
#include <stdio.h>
#include <editline/readline.h>
