# SPDX-License-Identifier: GPL-3.0-or-later
# PINSCOPE_TEST_CODE_O0 (the asan preset, which the test command builds from scratch): the tests' own
# code compiles without optimisation, the code under test as the preset says. GoogleTest's macros
# and the suites' fixtures took 3.4 times as long at -O1 (one batch of engine tests: 133 s against
# 40 s) and are not where the tests spend their time; ASan and UBSan check them either way.
option(PINSCOPE_TEST_CODE_O0 "Compile the tests' own code at -O0" OFF)
function(pinscope_test_code target)
  if(PINSCOPE_TEST_CODE_O0)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
