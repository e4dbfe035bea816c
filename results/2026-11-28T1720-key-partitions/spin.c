#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int c,char**v){ long n=atol(v[1]); volatile unsigned long x=1; struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a);
for(long i=0;i<n;i++){ x = x*6364136223846793005UL + 1442695040888963407UL; }
clock_gettime(CLOCK_MONOTONIC,&b); printf("%.3f s\n",(b.tv_sec-a.tv_sec)+(b.tv_nsec-a.tv_nsec)/1e9); return 0;}
