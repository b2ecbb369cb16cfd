/* C pread of one kernel file in a loop, thread CPU time per read: the floor for perf/read-path/ReadBench.java. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int c, char**v){ int fd=open(v[1],O_RDONLY); int n=atoi(v[2]); char b[4096]; long s=0;
 for(int r=0;r<3;r++){ struct timespec a,z; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&a);
 for(int i=0;i<n;i++) s+=pread(fd,b,4096,0);
 clock_gettime(CLOCK_THREAD_CPUTIME_ID,&z); printf("C %.0f ns\n", ((z.tv_sec-a.tv_sec)*1e9+(z.tv_nsec-a.tv_nsec))/n);} return s==0; }
