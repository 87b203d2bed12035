#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the sample topologies of this folder (see README.md): the CPU tree from hwloc's
synthetic description, then the PCI path to each GPU added under its package as hwloc 2 XML.
Run it from anywhere; it needs lstopo-no-graphics (Debian: hwloc)."""
import pathlib
import re
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
GIB = 1 << 30

# CPU numbering as Linux gives it on a 2-socket server with SMT: socket 0 has CPUs 0-15 and their
# siblings 32-47, socket 1 has CPUs 16-31 and 48-63 (indexes=2*32:1*2 interleaves them so).
SYNTHETIC = "pack:2 [numa(memory={memory})] core:16 pu:2(indexes=2*32:1*2)"

SERVERS = {
    "2-socket-2-gpu": {
        "product": "illustrative 2-socket server, one H200 per socket",
        "memory": 256 * GIB,
        # package -> [(root port, GPU bus, PCI device id, lspci name, CUDA name)]
        "gpus": {
            0: [("0000:40:01.1", 0x41, 0x2335, "GH100 [H200 SXM 141GB]", "NVIDIA H200")],
            1: [("0000:c0:01.1", 0xC1, 0x2335, "GH100 [H200 SXM 141GB]", "NVIDIA H200")],
        },
    },
    "4-gpu-server": {
        "product": "illustrative 2-socket server, two H100 PCIe per socket",
        "memory": 512 * GIB,
        "gpus": {
            0: [("0000:17:01.0", 0x18, 0x2331, "GH100 [H100 PCIe]", "NVIDIA H100 PCIe"),
                ("0000:38:01.0", 0x39, 0x2331, "GH100 [H100 PCIe]", "NVIDIA H100 PCIe")],
            1: [("0000:97:01.0", 0x98, 0x2331, "GH100 [H100 PCIe]", "NVIDIA H100 PCIe"),
                ("0000:b7:01.0", 0xB8, 0x2331, "GH100 [H100 PCIe]", "NVIDIA H100 PCIe")],
        },
    },
}

GEN5_X16_GB_PER_S = "63.015385"  # what hwloc writes for a PCIe Gen5 x16 link


def gpu_xml(indent, gp, root_port, bus, device_id, pci_name, cuda_name, cuda_index):
    pad = " " * indent
    root_bus = int(root_port.split(":")[1], 16)
    return f"""{pad}<object type="Bridge" gp_index="{gp}" bridge_type="0-1" depth="0" bridge_pci="0000:[{root_bus:02x}-{bus:02x}]">
{pad}  <object type="Bridge" gp_index="{gp + 1}" bridge_type="1-1" depth="1" bridge_pci="0000:[{bus:02x}-{bus:02x}]" pci_busid="{root_port}" pci_type="0604 [1022:14ab] [0000:0000] 00" pci_link_speed="{GEN5_X16_GB_PER_S}">
{pad}    <object type="PCIDev" gp_index="{gp + 2}" pci_busid="0000:{bus:02x}:00.0" pci_type="0302 [10de:{device_id:04x}] [10de:0000] a1" pci_link_speed="{GEN5_X16_GB_PER_S}">
{pad}      <info name="PCIVendor" value="NVIDIA Corporation"/>
{pad}      <info name="PCIDevice" value="{pci_name}"/>
{pad}      <object type="OSDev" gp_index="{gp + 3}" name="cuda{cuda_index}" subtype="CUDA" osdev_type="5">
{pad}        <info name="Backend" value="CUDA"/>
{pad}        <info name="GPUVendor" value="NVIDIA Corporation"/>
{pad}        <info name="GPUModel" value="{cuda_name}"/>
{pad}      </object>
{pad}    </object>
{pad}  </object>
{pad}</object>
"""


def make(name, server):
    synthetic = SYNTHETIC.format(memory=server["memory"])
    xml = subprocess.run(["lstopo-no-graphics", "--input", synthetic, "--of", "xml", "-"],
                         check=True, capture_output=True, text=True).stdout
    # Say what it is, and drop what only describes this run of lstopo.
    xml = re.sub(r'\n\s*<info name="(ProcessName|hwlocVersion)" value="[^"]*"/>', "", xml)
    xml = xml.replace('<info name="Backend" value="Synthetic"/>',
                      f'<info name="Backend" value="Synthetic"/>\n    <info name="DMIProductName" value="{server["product"]}"/>', 1)
    # The GPUs go last among each package's children, as hwloc attaches I/O under the package.
    lines = xml.split("\n")
    out, package, depth_of_package, gp, cuda_index = [], -1, None, 1000, 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        match = re.match(r'<object type="Package" os_index="(\d+)"', stripped)
        if match:
            package, depth_of_package = int(match.group(1)), indent
        elif depth_of_package is not None and indent == depth_of_package and stripped == "</object>":
            for port, bus, dev, pci_name, cuda_name in server["gpus"].get(package, []):
                out.append(gpu_xml(indent + 2, gp, port, bus, dev, pci_name, cuda_name, cuda_index).rstrip("\n"))
                gp += 4
                cuda_index += 1
            depth_of_package = None
        out.append(line)
    path = HERE / f"{name}.xml"
    path.write_text("\n".join(out))
    return path


if __name__ == "__main__":
    for name, server in SERVERS.items():
        path = make(name, server)
        shown = subprocess.run(["lstopo-no-graphics", "--input", str(path), "--of", "console", "--filter", "core:none", "--no-smt"],
                               check=True, capture_output=True, text=True).stdout
        print(f"== {path.name}\n{shown}")
