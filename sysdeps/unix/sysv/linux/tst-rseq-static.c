/* Static variant of tst-rseq.  */
#include "tst-rseq.c"
