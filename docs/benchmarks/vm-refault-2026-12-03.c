// Touch N MiB of fresh anonymous memory; time it. Between rounds: munmap, then wait W s.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static double touch(size_t bytes){
  char*p=mmap(0,bytes,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
  if(p==MAP_FAILED){perror("mmap");exit(1);}
  double t0=now(); for(size_t i=0;i<bytes;i+=4096)p[i]=1; double t=now()-t0;
  munmap(p,bytes); return bytes/t/1e9;}
int main(int c,char**v){size_t mib=c>1?atol(v[1]):512; size_t b=mib<<20;
  printf("first %.2f GB/s\n",touch(b));
  for(int r=0;r<3;r++){printf("again at once %.2f GB/s\n",touch(b));}
  int waits[]={1,3,6,10};
  for(int k=0;k<4;k++){for(int r=0;r<2;r++){sleep(waits[k]);printf("after %d s %.2f GB/s\n",waits[k],touch(b));}}
  return 0;}
