# SPDX-License-Identifier: GPL-3.0-or-later
# PINSCOPE_SANITIZE: "" (none), "address" (ASan + UBSan) or "thread" (TSan).
# PINSCOPE_FUZZ (clang only, the fuzz preset) adds libFuzzer's coverage to everything and builds
# tests/fuzz as libFuzzer binaries; UBSan then also checks float-to-integer conversions.
option(PINSCOPE_FUZZ "Build tests/fuzz as libFuzzer targets (clang)" OFF)
if(PINSCOPE_FUZZ)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,float-cast-overflow>)
  add_link_options(-fsanitize=float-cast-overflow)
endif()
set(PINSCOPE_SANITIZE "" CACHE STRING "Sanitizers: address (with undefined) or thread")
if(PINSCOPE_SANITIZE STREQUAL "address")
  # CXX only: nvcc does not take these flags, and device code cannot be instrumented anyway.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined> $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>)
  add_link_options(-fsanitize=address,undefined)
elseif(PINSCOPE_SANITIZE STREQUAL "thread")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread> $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=thread)
elseif(NOT PINSCOPE_SANITIZE STREQUAL "")
  message(FATAL_ERROR "PINSCOPE_SANITIZE must be empty, 'address' or 'thread', not '${PINSCOPE_SANITIZE}'")
endif()
add_feature_info(Sanitizers "NOT PINSCOPE_SANITIZE STREQUAL \"\"" "built with -fsanitize=${PINSCOPE_SANITIZE}")
