// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A bounded ring of trivially copyable records with any number of writers and readers.
// Writers never wait: when the ring is full the oldest records are overwritten. Each reader keeps
// its own cursor and gets what is new since its last call; records overwritten before it read
// them are counted as dropped. Every slot is a small seqlock whose words are atomics, so a reader
// racing a writer sees either the whole record or none of it (and the sanitizers agree: there
// are no fences, which ThreadSanitizer cannot follow).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace pinscope {

struct RingCursor {
    std::uint64_t next = 0;     // sequence number of the next record to read
    std::uint64_t dropped = 0;  // records lost to overwriting, in total
};

template <class T>
class TraceRing {
    static_assert(std::is_trivially_copyable_v<T>);
    static constexpr std::size_t kWords = (sizeof(T) + 7) / 8;

public:
    explicit TraceRing(std::size_t capacity) {
        std::size_t cap = 1;
        while (cap < capacity) cap <<= 1;
        slots_ = std::make_unique<Slot[]>(cap);
        mask_ = cap - 1;
    }

    std::size_t capacity() const { return mask_ + 1; }
    std::uint64_t written() const { return next_.load(std::memory_order_acquire); }

    void push(const T& record) {
        const std::uint64_t seq = next_.fetch_add(1, std::memory_order_relaxed);
        Slot& slot = slots_[seq & mask_];
        slot.seq.store(2 * seq + 1, std::memory_order_relaxed);
        std::array<std::uint64_t, kWords> words{};
        std::memcpy(words.data(), &record, sizeof(T));
        // Release on each word: a reader that sees one new word also sees the odd sequence.
        for (std::size_t k = 0; k < kWords; ++k) slot.words[k].store(words[k], std::memory_order_release);
        slot.seq.store(2 * seq + 2, std::memory_order_release);
    }

    // Appends to `out` the records published since the cursor, up to `max_records`.
    // Stops early at a record still being written; the next call picks it up.
    std::size_t read(RingCursor& cursor, std::vector<T>& out, std::size_t max_records = SIZE_MAX) const {
        const std::uint64_t head = next_.load(std::memory_order_acquire);
        if (head > cursor.next + capacity()) {
            cursor.dropped += head - capacity() - cursor.next;
            cursor.next = head - capacity();
        }
        std::size_t got = 0;
        while (cursor.next < head && got < max_records) {
            const Slot& slot = slots_[cursor.next & mask_];
            const std::uint64_t expected = 2 * cursor.next + 2;
            const std::uint64_t before = slot.seq.load(std::memory_order_acquire);
            if (before < expected) break;  // its writer has not finished yet
            std::array<std::uint64_t, kWords> words{};
            for (std::size_t k = 0; k < kWords; ++k) words[k] = slot.words[k].load(std::memory_order_acquire);
            const std::uint64_t after = slot.seq.load(std::memory_order_relaxed);
            ++cursor.next;
            if (before != expected || after != expected) {
                ++cursor.dropped;  // overwritten by a writer that lapped the reader
                continue;
            }
            T record;
            std::memcpy(static_cast<void*>(&record), words.data(), sizeof(T));
            out.push_back(record);
            ++got;
        }
        return got;
    }

    // A cursor that starts at what is written from now on.
    RingCursor cursor_at_end() const { return RingCursor{written(), 0}; }

private:
    struct Slot {
        std::atomic<std::uint64_t> seq{0};
        std::array<std::atomic<std::uint64_t>, kWords> words{};
    };
    std::unique_ptr<Slot[]> slots_;
    std::size_t mask_ = 0;
    std::atomic<std::uint64_t> next_{0};
};

}  // namespace pinscope
