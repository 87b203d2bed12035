// SPDX-License-Identifier: GPL-3.0-or-later
// Text from input shown in messages: escapes and invalid UTF-8 made visible, long text cut short.
#include <gtest/gtest.h>

#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

TEST(UntrustedText, TerminalEscapesAndControlCharactersBecomeVisible) {
    EXPECT_EQ(printable("red\x1b[31mtext\a\r\n"), "red\\x1b[31mtext\\x07\\x0d\\x0a");
    EXPECT_EQ(printable("del\x7f"), "del\\x7f");
    EXPECT_EQ(printable(std::string("nul\0x", 5)), "nul\\x00x");
}

TEST(UntrustedText, InvalidUtf8IsEscapedByteByByteAndValidUtf8Kept) {
    EXPECT_EQ(printable("f\xff\xfe"), "f\\xff\\xfe");
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80"), "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80");
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");              // overlong '/'
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");     // a surrogate
    EXPECT_EQ(printable("cut \xe2\x86"), "cut \\xe2\\x86");     // a sequence cut short
}

TEST(UntrustedText, C1ControlsAndBidiOverridesAreEscaped) {
    EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");  // U+009B, CSI on some terminals
    EXPECT_EQ(printable("a\xe2\x80\xae" "b"), "a\\xe2\\x80\\xaeb");  // U+202E right-to-left override
}

TEST(UntrustedText, LongTextIsCutWithAnEllipsis) {
    const std::string shown = printable(std::string(1 << 20, 'x'));
    EXPECT_EQ(shown, std::string(kEchoChars, 'x') + "...");
    EXPECT_EQ(printable("abcdef", 3), "abc...");
    EXPECT_EQ(printable("abc", 3), "abc");
    EXPECT_LE(printable(std::string(1000, '\x1b')).size(), kEchoChars + 8);
}

TEST(UntrustedText, ShowingShownTextAgainChangesNothing) {
    const std::string once = printable("a\x1b" "b\xff");
    EXPECT_EQ(printable(once), once);
}

TEST(UntrustedText, ALongPathKeepsItsFileNameAndItsStart) {
    const std::string path = "/check/work/main/" + std::string(300, 'd') + "/recording-shot/notes.txt";
    const std::string shown = printable_path(path);
    EXPECT_EQ(shown.rfind("/check/work/main/", 0), 0u);
    EXPECT_NE(shown.find("..."), std::string::npos);
    EXPECT_EQ(shown.substr(shown.size() - 25), "/recording-shot/notes.txt");
    EXPECT_EQ(shown.size(), kEchoPathChars + 3);
    EXPECT_EQ(printable_path("/tmp/a.pinscope"), "/tmp/a.pinscope");
    EXPECT_EQ(printable_path("/tmp/\x1b[2J.txt"), "/tmp/\\x1b[2J.txt");
}

TEST(UntrustedText, AShortenedPathNeverSplitsACharacter) {
    std::string path = "/";
    for (int i = 0; i < 200; ++i) path += "\xc3\xa9";  // é
    const std::string shown = printable_path(path, 20);
    EXPECT_EQ(printable(shown, 1000), shown);  // still valid UTF-8: nothing escaped
}

}  // namespace
}  // namespace pinscope
