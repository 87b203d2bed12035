# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DPROGRAM=path/to/pinscope-cli -DOUT=pinscope-cli.1 -P WriteManPage.cmake
# Runs PROGRAM --help-man and writes what it prints to OUT, whole or not at all. Sanitizer reports
# are off: a sanitizer build runs this at build time, and the page is all that is wanted here.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
set(ENV{TSAN_OPTIONS} "report_bugs=0")
execute_process(COMMAND ${PROGRAM} --help-man OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${PROGRAM} --help-man failed (${status}): ${errors}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
