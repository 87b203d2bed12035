// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The desktop application's QtTest suites share one executable (UiSuiteMain.cpp), so that they are
// compiled and linked once: each *Test.cpp ends with PINSCOPE_UI_SUITE(Class) where a QtTest suite
// would have QTEST_MAIN(Class), and `pinscope_ui_tests Class [QtTest options]` runs that suite
// alone, in its own process and QApplication, as QTEST_MAIN would.
#include <QObject>

#include <functional>
#include <memory>

namespace pinscope::test {

using UiSuiteFactory = std::function<std::unique_ptr<QObject>()>;

// Called once per suite before main(); returns true so that a namespace-scope constant can hold it.
// A second suite of the same name ends the program, saying so.
bool register_ui_suite(const char* name, UiSuiteFactory make);

}  // namespace pinscope::test

#define PINSCOPE_UI_SUITE(Class)                                                               \
    namespace {                                                                                \
    [[maybe_unused]] const bool registered_##Class = ::pinscope::test::register_ui_suite(      \
        #Class, [] { return std::unique_ptr<QObject>(std::make_unique<Class>()); });           \
    }
