# SPDX-License-Identifier: GPL-3.0-or-later
# PINSCOPE_QUICK_COMPILE (the asan preset, which the test command builds from scratch): the targets
# given to pinscope_quick_compile() compile without optimisation: the tests' own code, the UI and
# the CLI's front end. The engine, where the tests spend their time (its threads, clock and models),
# stays at the preset's -O1. With ASan and UBSan a batch of eight engine test files compiled in
# 39.5 s at -O0 against 132.6 s at -O1, and a fresh test build's UI library, CLI, UI suites and fuzz
# targets took 641 s of summed compile time against 1096 (docs/benchmarks.md). What -O0 gives up is
# the warnings GCC draws from its optimiser; the other presets keep them.
option(PINSCOPE_QUICK_COMPILE "Compile the tests, the UI and the CLI's front end at -O0" OFF)
function(pinscope_quick_compile target)
  if(PINSCOPE_QUICK_COMPILE)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
