# SPDX-License-Identifier: GPL-3.0-or-later
# PINSCOPE_UNITY_BUILD (the asan preset, which the test command builds from scratch): the targets
# given to pinscope_unity() compile their sources eight to a file. Each of those sources includes
# the same heavy headers (the standard library's, GoogleTest, nlohmann/json, CLI11, Qt), whose
# code is then generated and instrumented once a batch instead of once a file. Off elsewhere, so
# that editing one file rebuilds one file. Names at namespace scope must differ between the files
# of such a target.
option(PINSCOPE_UNITY_BUILD "Compile the engine, the UI library, the CLI and the tests eight sources to a file" OFF)
function(pinscope_unity target)
  if(PINSCOPE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # Every source is then an included file to GCC, which warns of any class in it that holds a type
    # of the file's anonymous namespace (as if a header did): not so here.
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()
