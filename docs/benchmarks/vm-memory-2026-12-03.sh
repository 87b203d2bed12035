# Which memory-return mechanisms the VM has (run on the GPU machine; vm-refault built from
# vm-refault-2026-12-03.c with gcc -O2).
echo "boot_id $(cat /proc/sys/kernel/random/boot_id)"; date -u +%FT%TZ; uname -r; nproc
nvidia-smi --query-gpu=name,pci.bus_id,driver_version --format=csv,noheader
for d in /sys/bus/virtio/devices/*; do echo "$d device=$(cat $d/device) features=$(cat $d/features)"; done
ls /sys/module/ | grep -Ei 'balloon|page_report|damon'
for f in /sys/module/page_reporting/parameters/* /sys/module/damon_reclaim/parameters/*; do [ -e "$f" ] && echo "$f=$(cat $f)"; done
ps -eo pid,comm | grep -Ei 'kdamond|balloon|khuge|kswap'
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
grep -E 'MemTotal|MemFree|MemAvailable|AnonHugePages|Hugetlb' /proc/meminfo
head -1 /proc/stat
grep -E 'pgfault|thp_fault_alloc|balloon|pgsteal|pswp' /proc/vmstat
./vm-refault 1024
head -1 /proc/stat
