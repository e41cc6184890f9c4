/* Static variant of tst-rseq-disable.  */
#include "tst-rseq-disable.c"
