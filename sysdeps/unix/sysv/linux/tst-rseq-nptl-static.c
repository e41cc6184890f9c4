/* Static variant of tst-rseq-nptl.  */
#include "tst-rseq-nptl.c"
