# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into an empty prefix puts everything in place, and the installed programs work
# from another folder, needing nothing of the build or source tree: pinscope-cli runs, pinscope
# says its version and draws its window offscreen, and neither binary's run path names the build.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DOUT=dir -DAPP_ID=... -DGUI=ON|OFF [-DREADELF=...] -P CheckInstall.cmake
file(REMOVE_RECURSE ${OUT})
set(prefix ${OUT}/prefix)
set(elsewhere ${OUT}/elsewhere)
file(MAKE_DIRECTORY ${elsewhere})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status}):\n${out}${err}")
endif()

set(expected bin/pinscope-cli share/man/man1/pinscope-cli.1 share/pinscope/profiles/h200-pcie5.json
             share/pinscope/topologies/2-socket-2-gpu.xml share/doc/pinscope/LICENSE)
if(GUI)
  list(APPEND expected bin/pinscope share/man/man1/pinscope.1 share/applications/${APP_ID}.desktop
       share/metainfo/${APP_ID}.metainfo.xml share/icons/hicolor/scalable/apps/${APP_ID}.svg)
  foreach(size 16 22 24 32 48 64 128 256 512)
    list(APPEND expected share/icons/hicolor/${size}x${size}/apps/${APP_ID}.png)
  endforeach()
endif()
if(EXISTS ${SOURCE_DIR}/resources/lessons)
  list(APPEND expected share/pinscope/lessons)
endif()
foreach(path ${expected})
  # Manual pages may be compressed.
  if(NOT EXISTS ${prefix}/${path} AND NOT EXISTS ${prefix}/${path}.gz)
    message(FATAL_ERROR "cmake --install did not put ${path} under the prefix")
  endif()
endforeach()

# Run from another folder, with the build tree's folders nowhere on the way.
execute_process(COMMAND ${prefix}/bin/pinscope-cli run --seconds 1 --no-advice --device emulated
                WORKING_DIRECTORY ${elsewhere} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT status EQUAL 0 OR NOT out MATCHES "batches")
  message(FATAL_ERROR "installed pinscope-cli run exited ${status}:\n${out}${err}")
endif()
execute_process(COMMAND ${prefix}/bin/pinscope-cli topology --xml 2-socket-2-gpu
                WORKING_DIRECTORY ${elsewhere} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "installed pinscope-cli topology --xml 2-socket-2-gpu exited ${status}:\n${out}${err}")
endif()

set(programs ${prefix}/bin/pinscope-cli)
if(GUI)
  list(APPEND programs ${prefix}/bin/pinscope)
  execute_process(COMMAND ${prefix}/bin/pinscope --version WORKING_DIRECTORY ${elsewhere}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "^pinscope [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [^,]+, [A-Za-z]+ build")
    message(FATAL_ERROR "installed pinscope --version exited ${status}: ${out}${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                          ${prefix}/bin/pinscope --screenshot ${elsewhere}/window.png --after 1
                  WORKING_DIRECTORY ${elsewhere} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT status EQUAL 0 OR NOT EXISTS ${elsewhere}/window.png)
    message(FATAL_ERROR "installed pinscope --screenshot exited ${status}:\n${out}${err}")
  endif()
endif()

if(READELF)
  foreach(program ${programs})
    execute_process(COMMAND ${READELF} -d ${program} OUTPUT_VARIABLE dynamic)
    foreach(tree ${BUILD_DIR} ${SOURCE_DIR})
      string(FIND "${dynamic}" "${tree}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "${program} still looks for libraries in ${tree}:\n${dynamic}")
      endif()
    endforeach()
  endforeach()
endif()
message(STATUS "installed under ${prefix}; the programs ran from ${elsewhere}")
