/* hwloc alone, no pinscope code: load an hwloc XML topology and destroy it. On a malformed file
 * hwloc 2.9's built-in XML parser fails the load and leaks the objects it had made (lsan.supp). */
#include <hwloc.h>
#include <stdio.h>

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s TOPOLOGY.xml\n", argv[0]);
        return 2;
    }
    hwloc_topology_t topology;
    hwloc_topology_init(&topology);
    const int set = hwloc_topology_set_xml(topology, argv[1]);
    const int loaded = set == 0 ? hwloc_topology_load(topology) : -1;
    printf("set_xml %d, load %d\n", set, loaded);
    hwloc_topology_destroy(topology);
    return loaded == 0 ? 0 : 1;
}
