// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/UntrustedText.h"

#include <array>
#include <vector>

namespace pinscope {
namespace {

// The length of the valid UTF-8 sequence at `text[i]`, 0 when it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i, char32_t& code) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        code = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
    if (overlong || surrogate || code > 0x10FFFF) return 0;
    return length;
}

// Characters a terminal acts on rather than shows: C1 controls (some terminals read U+009B as
// CSI) and the bidirectional overrides that reorder what follows them.
bool invisible_control(char32_t code) {
    return (code >= 0x80 && code <= 0x9F) || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

std::string escaped(unsigned char byte) {
    constexpr std::array<char, 16> kHex{'0', '1', '2', '3', '4', '5', '6', '7',
                                        '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    return std::string{'\\', 'x', kHex[byte >> 4], kHex[byte & 0xF]};
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (chars >= max_chars) return out + "...";
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7F) {
            out += text[i++];
            ++chars;
            continue;
        }
        char32_t code = 0;
        const std::size_t length = byte >= 0x80 ? utf8_length(text, i, code) : 0;
        if (length > 0 && !invisible_control(code)) {
            out.append(text.substr(i, length));
            i += length;
            ++chars;
            continue;
        }
        // One escape per byte of a control character or of bytes that are not UTF-8.
        const std::size_t count = length > 0 ? length : 1;
        for (std::size_t k = 0; k < count; ++k) out += escaped(static_cast<unsigned char>(text[i + k]));
        i += count;
        chars += 4 * count;
    }
    return out;
}

std::string printable_path(std::string_view path, std::size_t max_chars) {
    const std::string whole = printable(path, path.size() * 4);
    // Counted in characters: a UTF-8 continuation byte is not one.
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < whole.size(); ++i)
        if ((static_cast<unsigned char>(whole[i]) & 0xC0) != 0x80) starts.push_back(i);
    if (starts.size() <= max_chars) return whole;
    const std::size_t tail = max_chars * 2 / 3;
    const std::size_t head = max_chars - tail;
    return whole.substr(0, starts[head]) + "..." + whole.substr(starts[starts.size() - tail]);
}

}  // namespace pinscope
