# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop entry and the AppStream metainfo validate, as software centres and menus read them.
#   cmake -DDESKTOP_FILE_VALIDATE=... -DAPPSTREAMCLI=... -DDESKTOP_ENTRY=... -DMETAINFO=... -P CheckDesktopFiles.cmake
execute_process(COMMAND ${DESKTOP_FILE_VALIDATE} ${DESKTOP_ENTRY} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
# desktop-file-validate exits 0 with hints and warnings printed: any output is a finding.
if(NOT status EQUAL 0 OR NOT "${out}${err}" STREQUAL "")
  message(FATAL_ERROR "desktop-file-validate ${DESKTOP_ENTRY} (${status}):\n${out}${err}")
endif()
# --no-net: the check must not depend on the network; --pedantic: hints count too.
execute_process(COMMAND ${APPSTREAMCLI} validate --pedantic --no-net ${METAINFO} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "appstreamcli validate ${METAINFO} (${status}):\n${out}${err}")
endif()
message(STATUS "${DESKTOP_ENTRY} and ${METAINFO} validate")
