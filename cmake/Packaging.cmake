# SPDX-License-Identifier: GPL-3.0-or-later
# `cpack -G DEB` in a release build (cmake --preset release): a Debian package of what
# `cmake --install` puts in place, under /usr. Its dependencies come from dpkg-shlibdeps, which
# reads the programs' shared libraries (Qt 6, QCustomPlot, hwloc, SQLite, the C++ runtime); the
# release preset links the CUDA runtime statically, so a GPU needs only the NVIDIA driver.
# docs/packaging.md says how the package was installed and removed in a clean Debian 12.
set(CPACK_PACKAGE_NAME pinscope)
set(CPACK_PACKAGE_VENDOR "pinscope")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
# Debian's description: lines within 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
    "pinscope shows live how a training loop's batches get from host memory to the
GPU, the way PyTorch's DataLoader moves them: worker threads, the pin thread
copying into page-locked memory, the copy engine and the kernel, on an NVIDIA
GPU or an emulated device. pinscope is the desktop application; pinscope-cli
runs, sweeps, records and compares without a display.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # pinscope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "pinscope developers <pinscope@invalid>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The icon theme the hicolor PNGs go into; the desktop entry's menu is refreshed by the desktop's
# own triggers.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver")
if(PINSCOPE_HAVE_CUDA AND NOT PINSCOPE_CUDART_STATIC)
  message(STATUS "Packaging: this build links the CUDA runtime as a shared library, which no Debian package "
                 "provides in its version; build the package from the release preset (PINSCOPE_CUDART_STATIC=ON)")
endif()
include(CPack)
