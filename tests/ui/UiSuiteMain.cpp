// SPDX-License-Identifier: GPL-3.0-or-later
// main() of pinscope_ui_tests: `pinscope_ui_tests SUITE [QtTest options]` runs one suite as
// QTEST_MAIN would (a QApplication at 96 dpi, then QTest::qExec); `--list` names every suite.
#include <QApplication>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tests/ui/UiSuite.h"

namespace pinscope::test {
namespace {

// A function's static, so that it exists before the first registration whatever the order in
// which the suites' files are initialised.
std::map<std::string, UiSuiteFactory>& suites() {
    static std::map<std::string, UiSuiteFactory> registered;
    return registered;
}

void list_suites(std::FILE* out) {
    for (const auto& [name, make] : suites()) std::fprintf(out, "%s\n", name.c_str());
}

}  // namespace

bool register_ui_suite(const char* name, UiSuiteFactory make) {
    if (!suites().emplace(name, std::move(make)).second) {
        // CTest names a suite by its file: two classes of one name would run one of them twice.
        std::fprintf(stderr, "pinscope_ui_tests: two suites are named %s\n", name);
        std::abort();
    }
    return true;
}

}  // namespace pinscope::test

int main(int argc, char** argv) {
    using pinscope::test::suites;
    if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {
        pinscope::test::list_suites(stdout);
        return 0;
    }
    const auto suite = argc >= 2 ? suites().find(argv[1]) : suites().end();
    if (suite == suites().end()) {
        std::fprintf(stderr, "usage: %s SUITE [QtTest options]; SUITE is one of:\n", argv[0]);
        pinscope::test::list_suites(stderr);
        return 2;
    }
    // QtTest sees the program name and the options after the suite's name.
    std::vector<char*> test_argv{argv[0]};
    for (int i = 2; i < argc; ++i) test_argv.push_back(argv[i]);
    int test_argc = static_cast<int>(test_argv.size());
    QApplication app(test_argc, test_argv.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
    const std::unique_ptr<QObject> tests = suite->second();
    return QTest::qExec(tests.get(), test_argc, test_argv.data());
}
