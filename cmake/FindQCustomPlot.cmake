# SPDX-License-Identifier: GPL-3.0-or-later
# FindQCustomPlot: the QCustomPlot library built against Qt 6 (Debian: libqcustomplot-dev with
# libqcustomplot2.1-qt6). Defines QCustomPlot_FOUND and the imported target QCustomPlot::QCustomPlot.
# Needs Qt6::Widgets and Qt6::PrintSupport to exist already.
find_path(QCustomPlot_INCLUDE_DIR NAMES qcustomplot.h PATH_SUFFIXES qcustomplot)
find_library(QCustomPlot_LIBRARY NAMES QCustomPlotQt6 qcustomplot-qt6 qcustomplotqt6)
if(QCustomPlot_INCLUDE_DIR AND EXISTS ${QCustomPlot_INCLUDE_DIR}/qcustomplot.h)
  file(STRINGS ${QCustomPlot_INCLUDE_DIR}/qcustomplot.h _qcp_version REGEX "#define QCUSTOMPLOT_VERSION_STR")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" QCustomPlot_VERSION "${_qcp_version}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QCustomPlot
  REQUIRED_VARS QCustomPlot_LIBRARY QCustomPlot_INCLUDE_DIR
  VERSION_VAR QCustomPlot_VERSION)

if(QCustomPlot_FOUND AND NOT TARGET QCustomPlot::QCustomPlot)
  add_library(QCustomPlot::QCustomPlot UNKNOWN IMPORTED)
  set_target_properties(QCustomPlot::QCustomPlot PROPERTIES
    IMPORTED_LOCATION ${QCustomPlot_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${QCustomPlot_INCLUDE_DIR}
    INTERFACE_COMPILE_DEFINITIONS QCUSTOMPLOT_USE_LIBRARY
    INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
endif()
mark_as_advanced(QCustomPlot_INCLUDE_DIR QCustomPlot_LIBRARY)
