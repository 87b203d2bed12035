# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings for the project's own targets: pinscope_warnings(target)
function(pinscope_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wconversion -Wno-sign-conversion
      -Wnull-dereference -Wimplicit-fallthrough>)
  if(PINSCOPE_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
option(PINSCOPE_WERROR "Treat warnings as errors" OFF)
