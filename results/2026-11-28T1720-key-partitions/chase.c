#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int c,char**v){ long mb=atol(v[1]); long n=mb*1024*1024/8; long *p=malloc(n*8); long *perm=malloc(n*8);
for(long i=0;i<n;i++) perm[i]=i; srand(atoi(v[2])); for(long i=n-1;i>0;i--){ long j=((long)rand()*RAND_MAX+rand())%(i+1); long t=perm[i]; perm[i]=perm[j]; perm[j]=t;}
for(long i=0;i<n;i++) p[perm[i]]=perm[(i+1)%n];
struct timespec a,b; long x=0; long steps=50000000; clock_gettime(CLOCK_MONOTONIC,&a);
for(long i=0;i<steps;i++) x=p[x];
clock_gettime(CLOCK_MONOTONIC,&b); printf("%ld MB: %.1f ns/step (%ld)\n",mb,((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/steps,x&1); return 0;}
